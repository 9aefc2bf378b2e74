import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Signing secrets generated on first start and kept in <stateDir>/secrets (mode 0600), so links
 * and cursors stay valid across restarts. Each secret has a key id for rotation: the newest file
 * signs, every file present verifies.
 */
export function createSecrets(stateDir: string) {
  const dir = path.join(stateDir, 'secrets');
  const cache = new Map<string, { kid: string; key: Buffer }[]>();

  function load(name: string): { kid: string; key: Buffer }[] {
    const hit = cache.get(name);
    if (hit) return hit;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const prefix = `${name}.`;
    let files = fs.readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith('.key'));
    if (files.length === 0) {
      const kid = crypto.randomBytes(4).toString('hex');
      const file = path.join(dir, `${prefix}${kid}.key`);
      // flush: on disk before anything is signed with it (an OS crash must not leave an empty file).
      fs.writeFileSync(file, crypto.randomBytes(KEY_BYTES).toString('base64'), { mode: 0o600, flag: 'wx', flush: true });
      files = [path.basename(file)];
    }
    const keys = files
      .map((f) => ({ f, mtime: fs.statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime || a.f.localeCompare(b.f))
      .map(({ f }) => ({ kid: f.slice(prefix.length, -'.key'.length), key: readKey(path.join(dir, f)) }));
    cache.set(name, keys);
    return keys;
  }

  return {
    /** The key that signs new material. */
    current(name: string): { kid: string; key: Buffer } {
      return load(name)[0]!;
    },
    /** The key with that id, if it still exists (rotated-out keys are deleted by the operator). */
    byKid(name: string, kid: string): Buffer | undefined {
      return load(name).find((k) => k.kid === kid)?.key;
    },
  };
}

export type Secrets = ReturnType<typeof createSecrets>;

const KEY_BYTES = 32;

/**
 * A key file that is not 32 bytes of base64 (truncated by a disk fault, emptied by hand) is
 * refused: signing with what is left — with an empty key — would let anyone forge links.
 */
function readKey(file: string): Buffer {
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error(`The signing secret ${file} is damaged (${key.length} bytes, not ${KEY_BYTES}): delete it and restart, or restore it from the backup; what it signed stops verifying if it is deleted`);
  }
  return key;
}
