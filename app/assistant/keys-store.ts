import crypto from 'node:crypto';
import type { Db } from '../../data/db.js';
import { hashKey } from '../../data/stores/admin-keys.js';

/** The hosted platform's assistant key prefix (mintlify-docs api/introduction.mdx). */
export const ASSISTANT_KEY_PREFIX = 'mint_dsc_';
const KEY_PATTERN = /^mint_dsc_[0-9A-Za-z]{32,128}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface AssistantKey {
  id: string;
  projectId: string;
  prefix: string;
  label: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

interface Row {
  id: string;
  project_id: string;
  prefix: string;
  label: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

const toKey = (r: Row): AssistantKey => ({ id: r.id, projectId: r.project_id, prefix: r.prefix, label: r.label, createdAt: r.created_at, expiresAt: r.expires_at, revokedAt: r.revoked_at });

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * Assistant keys: each belongs to one project and opens only the discovery API (search, page,
 * assistant messages) for it. A separate table from admin keys, so an assistant key can never pass
 * admin-key authentication (its `mint_dsc_` form does not match theirs either).
 */
export function createAssistantKeyStore(db: Db, now: () => Date) {
  const insert = db.prepare('INSERT INTO assistant_keys (id, project_id, key_hash, prefix, label, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const byHash = db.prepare<[string], Row>('SELECT * FROM assistant_keys WHERE key_hash = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM assistant_keys WHERE id = ?');
  const all = db.prepare<[], Row>('SELECT * FROM assistant_keys ORDER BY created_at, id');
  const revoke = db.prepare('UPDATE assistant_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  return {
    create(input: { projectId: string; expiresAt?: Date | null; label?: string | null }): { key: string; record: AssistantKey } {
      const key = ASSISTANT_KEY_PREFIX + randomBase62(40);
      const id = 'akey_' + crypto.randomBytes(8).toString('hex');
      insert.run(id, input.projectId, hashKey(key), key.slice(0, ASSISTANT_KEY_PREFIX.length + 6), input.label ?? null, now().toISOString(), input.expiresAt ? input.expiresAt.toISOString() : null);
      return { key, record: toKey(byId.get(id)!) };
    },
    check(presented: string): { ok: true; key: AssistantKey } | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'expired' } {
      if (!KEY_PATTERN.test(presented)) return { ok: false, reason: 'malformed' };
      const row = byHash.get(hashKey(presented));
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.revoked_at) return { ok: false, reason: 'revoked' };
      if (row.expires_at && Date.parse(row.expires_at) <= now().getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, key: toKey(row) };
    },
    get(id: string): AssistantKey | undefined {
      const row = byId.get(id);
      return row && toKey(row);
    },
    list(projectId?: string): AssistantKey[] {
      return all.all().map(toKey).filter((k) => !projectId || k.projectId === projectId);
    },
    revoke(id: string): boolean {
      return revoke.run(now().toISOString(), id).changes > 0;
    },
  };
}

export type AssistantKeyStore = ReturnType<typeof createAssistantKeyStore>;
