import crypto from 'node:crypto';
import type { SettingsStore } from '../../data/stores/settings.js';
import { DAY_MS } from '../../data/stores/page-views.js';

const SALT_KEY = 'analytics.visitorSalt';

/**
 * Unique visitors without cookies or stored addresses (Plausible's scheme): a visitor is
 * SHA-256(salt of the UTC day, IP, user agent, project) cut to 48 bits. The salt is random,
 * kept in `settings` for its day only (so a restart within the day keeps counting the same
 * visitor once) and overwritten, i.e. discarded, when the first visitor of the next day is
 * hashed; yesterday's hashes can then no longer be recomputed from an address.
 */
export function createVisitorHasher(settings: SettingsStore) {
  let current: { day: number; salt: Buffer } | undefined;

  function saltFor(day: number): Buffer {
    if (current?.day === day) return current.salt;
    const stored = settings.get(SALT_KEY);
    if (stored) {
      const s = JSON.parse(stored) as { day: number; salt: string };
      if (s.day === day) return (current = { day, salt: Buffer.from(s.salt, 'base64') }).salt;
      // A clock set back (or a late process): never revive an older day's salt.
      if (s.day > day) return (current = { day, salt: crypto.randomBytes(32) }).salt;
    }
    current = { day, salt: crypto.randomBytes(32) };
    settings.set(SALT_KEY, JSON.stringify({ day, salt: current.salt.toString('base64') }));
    return current.salt;
  }

  return {
    hash(nowMs: number, ip: string, userAgent: string, projectId: string): number {
      const salt = saltFor(Math.floor(nowMs / DAY_MS));
      const h = crypto.createHash('sha256').update(salt).update('\0').update(ip).update('\0').update(userAgent).update('\0').update(projectId).digest();
      return h.readUIntBE(0, 6);
    },
  };
}

export type VisitorHasher = ReturnType<typeof createVisitorHasher>;
