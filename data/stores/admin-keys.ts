import crypto from 'node:crypto';
import type { Db } from '../db.js';

export type Scope = 'read' | 'write' | 'replica';
/** The scopes a key gets by default. */
export const ALL_SCOPES: readonly Scope[] = ['read', 'write'];
/**
 * Every scope there is. `replica` is a key of its own for serving replicas (docs/publishing.md):
 * it reads the active site versions and downloads their bundles and forwards beacons, nothing else.
 */
export const KNOWN_SCOPES: readonly Scope[] = ['read', 'write', 'replica'];

/** `mint_`: the prefix hosted clients and secret scanners already know. */
export const KEY_PREFIX = 'mint_';
const KEY_BODY_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^mint_[0-9A-Za-z]{32,128}$/;

export interface AdminKey {
  id: string;
  orgId: string;
  /** First characters of the key, enough to recognise it in a list; never the whole key. */
  prefix: string;
  scopes: Scope[];
  /** A replica key that follows every organization's sites, not only its own (`--all-organizations`). */
  allOrganizations: boolean;
  label: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

interface Row {
  id: string;
  org_id: string;
  key_hash: string;
  prefix: string;
  scopes: string;
  all_orgs: number;
  label: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

const toKey = (r: Row): AdminKey => ({
  id: r.id,
  orgId: r.org_id,
  prefix: r.prefix,
  scopes: r.scopes.split(',').filter(Boolean) as Scope[],
  allOrganizations: r.all_orgs === 1,
  label: r.label,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

/** Random base62 without modulo bias (rejection sampling over random bytes). */
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
 * Keys carry 238 bits of entropy, so a fast unsalted hash is enough: there is nothing to
 * brute-force, and a fixed hash lets the lookup be an index probe instead of a scan.
 */
export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

export type KeyCheck =
  | { ok: true; key: AdminKey }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'expired' };

export interface KeyInput {
  orgId: string;
  scopes?: readonly Scope[];
  /** Only with the `replica` scope alone: the key follows every organization's sites. */
  allOrganizations?: boolean;
  expiresAt?: Date | null;
  label?: string | null;
}

function allOrgsOf(input: KeyInput, scopes: readonly Scope[]): 0 | 1 {
  if (!input.allOrganizations) return 0;
  if (scopes.length !== 1 || scopes[0] !== 'replica') throw new Error('only a replica key (the replica scope alone) can follow every organization');
  return 1;
}

/** Whether a replica key may read the sites of projects of `orgId`. */
export function replicaKeyReaches(key: AdminKey, orgId: string): boolean {
  return key.scopes.includes('replica') && (key.allOrganizations || key.orgId === orgId);
}

export function createAdminKeyStore(db: Db, now: () => Date) {
  const insert = db.prepare(
    `INSERT INTO admin_keys (id, org_id, key_hash, prefix, scopes, all_orgs, label, created_at, expires_at)
     VALUES (@id, @orgId, @hash, @prefix, @scopes, @allOrgs, @label, @createdAt, @expiresAt)`,
  );
  const byHash = db.prepare<[string], Row>('SELECT * FROM admin_keys WHERE key_hash = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM admin_keys WHERE id = ?');
  const all = db.prepare<[], Row>('SELECT * FROM admin_keys ORDER BY created_at, id');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM admin_keys');
  const revoke = db.prepare('UPDATE admin_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const touch = db.prepare('UPDATE admin_keys SET last_used_at = ? WHERE id = ?');

  return {
    /** Create a key; the plain key is returned once and never stored. */
    create(input: KeyInput): {
      key: string;
      record: AdminKey;
    } {
      const key = KEY_PREFIX + randomBase62(KEY_BODY_LENGTH);
      const id = 'key_' + crypto.randomBytes(8).toString('hex');
      const scopes = [...new Set(input.scopes ?? ALL_SCOPES)].sort();
      insert.run({
        id,
        orgId: input.orgId,
        hash: hashKey(key),
        prefix: key.slice(0, KEY_PREFIX.length + 6),
        scopes: scopes.join(','),
        allOrgs: allOrgsOf(input, scopes),
        label: input.label ?? null,
        createdAt: now().toISOString(),
        expiresAt: input.expiresAt ? input.expiresAt.toISOString() : null,
      });
      return { key, record: toKey(byId.get(id)!) };
    },
    /**
     * Store a key the operator already holds (moving from the hosted platform keeps its scripts'
     * key). Only its hash is kept; a key that is not in the `mint_` format, or that is already
     * stored, is refused.
     */
    import(input: KeyInput & { key: string }):
      | { ok: true; record: AdminKey }
      | { ok: false; reason: 'malformed' | 'duplicate' } {
      if (!KEY_PATTERN.test(input.key)) return { ok: false, reason: 'malformed' };
      if (byHash.get(hashKey(input.key))) return { ok: false, reason: 'duplicate' };
      const id = 'key_' + crypto.randomBytes(8).toString('hex');
      const scopes = [...new Set(input.scopes ?? ALL_SCOPES)].sort();
      insert.run({
        id,
        orgId: input.orgId,
        hash: hashKey(input.key),
        prefix: input.key.slice(0, KEY_PREFIX.length + 6),
        scopes: scopes.join(','),
        allOrgs: allOrgsOf(input, scopes),
        label: input.label ?? null,
        createdAt: now().toISOString(),
        expiresAt: input.expiresAt ? input.expiresAt.toISOString() : null,
      });
      return { ok: true, record: toKey(byId.get(id)!) };
    },
    /** Decide whether a presented key is usable right now, and why not. */
    check(presented: string): KeyCheck {
      if (!KEY_PATTERN.test(presented)) return { ok: false, reason: 'malformed' };
      const row = byHash.get(hashKey(presented));
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.revoked_at) return { ok: false, reason: 'revoked' };
      const at = now();
      if (row.expires_at && Date.parse(row.expires_at) <= at.getTime()) return { ok: false, reason: 'expired' };
      // Coarse last-use tracking: one write a minute per key at most, so polling stays read-only.
      if (!row.last_used_at || at.getTime() - Date.parse(row.last_used_at) > 60_000) touch.run(at.toISOString(), row.id);
      return { ok: true, key: toKey(row) };
    },
    get(id: string): AdminKey | undefined {
      const row = byId.get(id);
      return row && toKey(row);
    },
    list(orgId?: string): AdminKey[] {
      return all.all().map(toKey).filter((k) => !orgId || k.orgId === orgId);
    },
    /** True when the key existed and was not already revoked. */
    revoke(id: string): boolean {
      return revoke.run(now().toISOString(), id).changes === 1;
    },
    count(): number {
      return count.get()!.n;
    },
  };
}

export type AdminKeyStore = ReturnType<typeof createAdminKeyStore>;
