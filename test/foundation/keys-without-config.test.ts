import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTree } from '../../app/fs-tree.js';
import { runCliProcess } from '../helpers/serve-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function outsideTheProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-outside-'));
  cleanups.push(() => removeTree(dir));
  return fs.realpathSync(dir);
}

/*
 * Issue 38 point 14: `keys create` run outside the project directory, with no --config and no
 * DOCS_APPLIANCE_CONFIG, works on the embedded defaults (./var there), where the server's
 * organization does not exist. The error says that no config was found and how to pass it.
 */
describe('keys without a config file', () => {
  it('keys create names the missing config, the state directory it used, --config and DOCS_APPLIANCE_CONFIG', async () => {
    const cwd = outsideTheProject();
    const r = await runCliProcess(['keys', 'create', '--org', 'org_ux', '--json'], { cwd });
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err.trim()).toBe(
      `error: no organization "org_ux" (known: none); no config file was found (no --config, DOCS_APPLIANCE_CONFIG not set), so this used the embedded defaults and the state directory ${path.join(cwd, 'var')}: pass the server's config with --config <file> or set DOCS_APPLIANCE_CONFIG`,
    );
    // nothing was created where it ran
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('keys create --type assistant says the same about an unknown project', async () => {
    const cwd = outsideTheProject();
    const r = await runCliProcess(['keys', 'create', '--type', 'assistant', '--project', 'p1'], { cwd });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: no project "p1" \(known: none\); no config file was found .*--config <file> or set DOCS_APPLIANCE_CONFIG\n$/);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('with the server config the error stays short: the organizations it knows', async () => {
    const cwd = outsideTheProject();
    const config = path.join(cwd, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ stateDir: path.join(cwd, 'state'), organizations: [{ id: 'org_a', name: 'A', plan: 'enterprise' }] }));
    const r = await runCliProcess(['keys', 'create', '--org', 'org_ux', '--config', config], { cwd });
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: no organization "org_ux" (known: org_a)\n');
    const ok = await runCliProcess(['keys', 'create', '--org', 'org_a', '--json', '--config', config], { cwd });
    expect(ok.code, ok.err).toBe(0);
    expect((JSON.parse(ok.out) as { orgId: string }).orgId).toBe('org_a');
  });

  it('the usage of keys create shows --config and the help says why it is needed', async () => {
    const r = await runCliProcess(['keys', 'create', '--help']);
    expect(r.code).toBe(0);
    for (const line of r.out.split('\n').filter((l) => l.trim().startsWith('docs-appliance keys create'))) expect(line).toContain('[--config <file>]');
    expect(r.out).toContain('pass the server\'s config file with --config <file> or\nDOCS_APPLIANCE_CONFIG');
  });
});
