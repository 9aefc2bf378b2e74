import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/load.js';
import { createAppContext } from '../../app/create-context.js';
import { createLogger } from '../../app/logger.js';
import { exampleDocsDir } from '../../app/paths.js';

function capture() {
  const lines: string[] = [];
  const log = createLogger('debug', new Writable({ write: (c: Buffer, _e, cb) => (lines.push(c.toString()), cb()) }));
  return { lines, log };
}

describe('first start', () => {
  it('creates the default enterprise org, the example docs project and a 0600 initial key file, and logs only the path', () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'boot-'));
    const { lines, log } = capture();
    const ctx = createAppContext({ config: parseConfig({ stateDir }), log });
    expect(ctx.stores.organizations.list()).toEqual([expect.objectContaining({ id: 'default', plan: 'enterprise' })]);
    const [project] = ctx.stores.projects.list();
    expect(project).toMatchObject({ orgId: 'default', name: 'docs', domain: 'localhost', sourceDir: exampleDocsDir() });
    expect(project!.id).toMatch(/^[0-9a-f]{24}$/);
    const file = path.join(stateDir, 'initial-admin-key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const key = fs.readFileSync(file, 'utf8').trim();
    expect(key).toMatch(/^mint_[0-9A-Za-z]{40}$/);
    expect(ctx.stores.adminKeys.check(key)).toMatchObject({ ok: true, key: { orgId: 'default', scopes: ['read', 'write'] } });
    const all = lines.join('');
    expect(all).toContain(file);
    expect(all).not.toContain(key);
    ctx.db.close();

    // A second start on the same state dir creates nothing new.
    const again = createAppContext({ config: parseConfig({ stateDir }), log: capture().log });
    expect(again.stores.adminKeys.count()).toBe(1);
    expect(again.stores.projects.list()).toHaveLength(1);
    again.db.close();
  });

  it('with organizations in the config, syncs them and gives the initial key to the first one', () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'boot-'));
    const config = parseConfig({
      stateDir,
      organizations: [
        { id: 'org_a', name: 'A', plan: 'pro' },
        { id: 'org_b', name: 'B', plan: 'enterprise' },
      ],
      projects: [{ id: '65a1f0c2e4b0a1b2c3d4e5f6', orgId: 'org_b', name: 'B docs', domain: 'docs.b.internal', sourceDir: '/srv/b' }],
    });
    const ctx = createAppContext({ config, log: capture().log });
    expect(ctx.stores.organizations.list().map((o) => o.id)).toEqual(['org_a', 'org_b']);
    expect(ctx.stores.projects.get('65a1f0c2e4b0a1b2c3d4e5f6')).toMatchObject({ orgId: 'org_b', domain: 'docs.b.internal' });
    const key = fs.readFileSync(path.join(stateDir, 'initial-admin-key'), 'utf8').trim();
    expect(ctx.stores.adminKeys.check(key)).toMatchObject({ ok: true, key: { orgId: 'org_a' } });
    ctx.db.close();

    // Changing the plan in the config updates it at the next start.
    const changed = parseConfig({ ...config, stateDir, organizations: [{ id: 'org_a', name: 'A', plan: 'enterprise' }, config.organizations[1]!], projects: [...config.projects] });
    const ctx2 = createAppContext({ config: changed, log: capture().log });
    expect(ctx2.stores.organizations.get('org_a')!.plan).toBe('enterprise');
    ctx2.db.close();
  });

  it('commits the initial key only with its file: a key file that cannot be written leaves no key, and the next start makes one', () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'boot-'));
    const file = path.join(stateDir, 'initial-admin-key');
    // A directory where the file goes: writeFileSync fails (EISDIR), as a full or read-only volume would.
    fs.mkdirSync(file);
    expect(() => createAppContext({ config: parseConfig({ stateDir }), log: capture().log })).toThrow(/EISDIR/);
    fs.rmdirSync(file);
    const { lines, log } = capture();
    const ctx = createAppContext({ config: parseConfig({ stateDir }), log });
    // Had the failed start kept its key's row, this start would have made none, and no one could sign in.
    expect(ctx.stores.adminKeys.count()).toBe(1);
    const key = fs.readFileSync(file, 'utf8').trim();
    expect(ctx.stores.adminKeys.check(key)).toMatchObject({ ok: true });
    expect(lines.join('')).toContain('first start: wrote the initial admin key');
    ctx.db.close();
  });
});
