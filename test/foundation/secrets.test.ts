import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecrets } from '../../app/secrets.js';

describe('signing secrets on disk', () => {
  it('are made as 32 random bytes in a 0600 file, and the same key is read back by the next start', () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
    const first = createSecrets(stateDir).current('bundle-links');
    expect(first.key).toHaveLength(32);
    const [file] = fs.readdirSync(path.join(stateDir, 'secrets'));
    expect(file).toBe(`bundle-links.${first.kid}.key`);
    expect(fs.statSync(path.join(stateDir, 'secrets', file!)).mode & 0o777).toBe(0o600);
    expect(createSecrets(stateDir).current('bundle-links')).toEqual(first);
  });

  it.each([
    ['empty', ''],
    ['truncated', Buffer.alloc(12, 7).toString('base64')],
  ])('a %s key file is refused with its name and the way out, never used to sign', (_what, content) => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
    fs.mkdirSync(path.join(stateDir, 'secrets'));
    const file = path.join(stateDir, 'secrets', 'bundle-links.0badc0de.key');
    fs.writeFileSync(file, content, { mode: 0o600 });
    const secrets = createSecrets(stateDir);
    expect(() => secrets.current('bundle-links')).toThrow(`The signing secret ${file} is damaged (${Buffer.from(content, 'base64').length} bytes, not 32): delete it and restart`);
    expect(() => secrets.byKid('bundle-links', '0badc0de')).toThrow(/is damaged/);
  });
});
