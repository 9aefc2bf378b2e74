import type { Db } from '../db.js';

/** Small durable key/value state (last cron runs, the active site pointer...). */
export function createSettingsStore(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  const del = db.prepare('DELETE FROM settings WHERE key = ?');
  return {
    get(key: string): string | undefined {
      return get.get(key)?.value;
    },
    set(key: string, value: string): void {
      set.run(key, value);
    },
    delete(key: string): void {
      del.run(key);
    },
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
