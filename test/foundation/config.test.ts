import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig } from '../../config/load.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
const writeJson = (dir: string, value: unknown) => {
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};
const org = { id: 'org_a', name: 'A', plan: 'enterprise' };
const project = { id: '65a1f0c2e4b0a1b2c3d4e5f6', orgId: 'org_a', name: 'A docs', domain: 'docs.a.internal', sourceDir: '/srv/a' };

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('config', () => {
  it('loads the shipped example config through the real loader', () => {
    const config = loadConfig({ file: 'docs-appliance.example.json', env: {}, cwd: path.resolve(import.meta.dirname, '../..') });
    expect(config.stateDir).toBe('/data');
    expect(config.organizations[0]).toEqual({ id: 'org_acme', name: 'Acme', plan: 'enterprise' });
    expect(config.projects[0]!.gitHost?.type).toBe('gitea');
    expect(config.staticExport).toMatchObject({ enabled: true, bundleUrl: 'file:///srv/bundles/acme.zip', version: '2026-11-01' });
  });

  it('runs on embedded defaults with no file', () => {
    const cwd = tmp();
    const config = loadConfig({ env: {}, cwd });
    expect(config.stateDir).toBe(path.join(cwd, 'var'));
    expect(config.admin.port).toBe(3000);
    expect(config.site.port).toBe(8080);
    expect(config.staticExport.enabled).toBe(false);
    expect(config.staticExport.linkTtlSeconds).toBe(3600);
    expect(config.analytics.rateLimitPerHour).toBe(100);
  });

  it('takes the file from DOCS_APPLIANCE_CONFIG and lets the environment override it', () => {
    const dir = tmp();
    const file = writeJson(dir, { stateDir: '/from-file', admin: { port: 1 }, site: { port: 2 } });
    const config = loadConfig({
      env: { DOCS_APPLIANCE_CONFIG: file, DOCS_APPLIANCE_STATE_DIR: '/from-env', DOCS_APPLIANCE_ADMIN_PORT: '4000', DOCS_APPLIANCE_SITE_PORT: '4001' },
      cwd: dir,
    });
    expect(config).toMatchObject({ stateDir: '/from-env', admin: { port: 4000 }, site: { port: 4001 } });
  });

  it('is frozen', () => {
    const config = parseConfig({ organizations: [org], projects: [project] });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.admin)).toBe(true);
    expect(Object.isFrozen(config.projects[0])).toBe(true);
    expect(() => {
      (config.admin as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('names an unknown key, at any depth', () => {
    expect(errorOf(() => parseConfig({ stateDirr: '/x' }))).toMatch(/- stateDirr: unknown key/);
    expect(errorOf(() => parseConfig({ admin: { prot: 1 } }))).toMatch(/- admin\.prot: unknown key/);
  });

  it('suggests the key meant when an unknown one is a likely typo of a key valid at that place', () => {
    expect(errorOf(() => parseConfig({ stateDirr: '/x' }))).toContain('- stateDirr: unknown key; did you mean "stateDir"?');
    expect(errorOf(() => parseConfig({ admin: { prot: 1 } }))).toContain('- admin.prot: unknown key; did you mean "admin.port"?');
    expect(errorOf(() => parseConfig({ Site: {} }))).toContain('- Site: unknown key; did you mean "site"?');
    expect(errorOf(() => parseConfig({ staticExport: { fetch: { retires: 1 } } }))).toContain('- staticExport.fetch.retires: unknown key; did you mean "staticExport.fetch.retries"?');
    expect(errorOf(() => parseConfig({ organizations: [org], projects: [{ ...project, publsh: {} }] }))).toContain('- projects.0.publsh: unknown key; did you mean "projects.0.publish"?');
    // Only keys of that level: `port` is not offered at the top, and a word far from every key gets no guess.
    expect(errorOf(() => parseConfig({ prot: 1 }))).toMatch(/- prot: unknown key$/m);
    expect(errorOf(() => parseConfig({ admin: { colour: 'red' } }))).toMatch(/- admin\.colour: unknown key$/m);
  });

  it('points at the line and column of invalid JSON, with the line and a caret', () => {
    const dir = tmp();
    const missingComma = writeJson(dir, '{\n  "admin": {\n    "port": 3000\n    "host": "127.0.0.1"\n  }\n}\n');
    const message = errorOf(() => loadConfig({ file: missingComma, env: {} }));
    expect(message).toContain(`Config file ${missingComma} is not valid JSON: line 4, column 5: Expected ',' or '}' after property value`);
    expect(message).not.toMatch(/position/);
    expect(message.split('\n').slice(1)).toEqual(['4 |     "host": "127.0.0.1"', '  |     ^']);
    // V8 names no offset for an unexpected token: the place still comes out.
    expect(errorOf(() => loadConfig({ file: writeJson(dir, '{\n  "stateDir": tru,\n}'), env: {} }))).toContain('line 2, column 15: Not a JSON value');
    expect(errorOf(() => loadConfig({ file: writeJson(dir, '{\n  "admin": {"port": }\n}'), env: {} }))).toContain('line 2, column 21: Expected a value');
    expect(errorOf(() => loadConfig({ file: writeJson(dir, '{\n  "stateDir": "/x",\n}'), env: {} }))).toContain('line 3, column 1: Expected double-quoted property name');
    expect(errorOf(() => loadConfig({ file: writeJson(dir, '{ "stateDir": '), env: {} }))).toContain('line 1, column 15: Expected a value');
    // Counted after a byte order mark is dropped, so the column is the one an editor shows.
    expect(errorOf(() => loadConfig({ file: writeJson(dir, '\uFEFF{"a": }'), env: {} }))).toContain('line 1, column 7: ');
  });

  it('log.format is auto, json or pretty (default auto) and DOCS_APPLIANCE_LOG_FORMAT overrides it', () => {
    expect(parseConfig({}).log.format).toBe('auto');
    expect(parseConfig({ log: { format: 'pretty' } }).log.format).toBe('pretty');
    expect(errorOf(() => parseConfig({ log: { format: 'text' } }))).toMatch(/- log\.format: /);
    expect(loadConfig({ env: { DOCS_APPLIANCE_LOG_FORMAT: 'json' }, cwd: tmp() }).log.format).toBe('json');
  });

  it('names the key and the problem for a wrong type or out-of-range value', () => {
    expect(errorOf(() => parseConfig({ admin: { port: 'x' } }))).toMatch(/- admin\.port: .*number/i);
    expect(errorOf(() => parseConfig({ site: { port: 70000 } }))).toMatch(/- site\.port: /);
    expect(errorOf(() => parseConfig({ staticExport: { linkTtlSeconds: 8 * 86400 } }))).toMatch(/- staticExport\.linkTtlSeconds: /);
    expect(errorOf(() => parseConfig({ organizations: [{ ...org, plan: 'gold' }] }))).toMatch(/- organizations\.0\.plan: /);
  });

  it('checks projects: id format, domain, declared organization, uniqueness', () => {
    expect(errorOf(() => parseConfig({ organizations: [org], projects: [{ ...project, id: 'xyz' }] }))).toMatch(/projects\.0\.id: must be 24 lowercase hex/);
    expect(errorOf(() => parseConfig({ organizations: [org], projects: [{ ...project, domain: 'https://docs.a' }] }))).toMatch(/projects\.0\.domain: must be a bare hostname/);
    expect(errorOf(() => parseConfig({ organizations: [org], projects: [{ ...project, orgId: 'org_b' }] }))).toMatch(/projects\.0\.orgId: no organization "org_b"/);
    expect(
      errorOf(() => parseConfig({ organizations: [org], projects: [project, { ...project, id: '65a1f0c2e4b0a1b2c3d4e5f7' }] })),
    ).toMatch(/projects\.1\.domain: domain "docs\.a\.internal" is used by another project/);
  });

  it('requires a bundleUrl when serving a static export is enabled', () => {
    expect(errorOf(() => parseConfig({ staticExport: { enabled: true } }))).toMatch(/staticExport\.bundleUrl: required/);
  });

  it('reports unreadable and unparsable files and bad environment values', () => {
    const dir = tmp();
    expect(errorOf(() => loadConfig({ file: path.join(dir, 'missing.json'), env: {} }))).toMatch(/Cannot read config file/);
    const bad = writeJson(dir, '{ "stateDir": ');
    expect(errorOf(() => loadConfig({ file: bad, env: {} }))).toMatch(/not valid JSON/);
    const arr = writeJson(dir, '[]');
    expect(errorOf(() => loadConfig({ file: arr, env: {} }))).toMatch(/must contain a JSON object/);
    expect(errorOf(() => loadConfig({ env: { DOCS_APPLIANCE_ADMIN_PORT: 'eighty' } }))).toMatch(/DOCS_APPLIANCE_ADMIN_PORT: must be a port number/);
    expect(errorOf(() => loadConfig({ env: { DOCS_APPLIANCE_STATIC_EXPORT_ENABLED: 'yes please' } }))).toMatch(/DOCS_APPLIANCE_STATIC_EXPORT_ENABLED: must be true or false/);
  });
});

describe('config: URL settings and encodings', () => {
  it.each([
    ['admin.publicUrl', (u: string) => ({ admin: { publicUrl: u } })],
    ['agent.baseUrl', (u: string) => ({ agent: { baseUrl: u } })],
    ['projects.0.gitHost.apiUrl', (u: string) => ({ organizations: [org], projects: [{ ...project, gitHost: { type: 'gitea', apiUrl: u } }] })],
  ])('%s accepts only an http(s) URL without credentials', (key, at) => {
    for (const bad of ['javascript:alert(1)', 'data:text/html,<x>', 'file:///etc/passwd', 'ftp://files.internal/', 'vbscript:x', 'http://user:secret@h.internal/']) {
      const message = errorOf(() => parseConfig(at(bad)));
      expect(message, bad).toContain(`- ${key}: `);
      expect(message, bad).not.toContain('secret');
    }
    for (const good of ['http://localhost:3000', 'https://docs-admin.acme.internal/base/', 'http://10.0.0.5:8080', 'http://[::1]:3000/']) expect(() => parseConfig(at(good)), good).not.toThrow();
  });

  it('admin.publicUrl refuses a query or fragment (signed links are appended to it)', () => {
    expect(errorOf(() => parseConfig({ admin: { publicUrl: 'https://a.internal/?x=1' } }))).toContain('- admin.publicUrl: must not contain a query or fragment');
    expect(errorOf(() => parseConfig({ admin: { publicUrl: 'https://a.internal/#top' } }))).toContain('- admin.publicUrl: must not contain a query or fragment');
  });

  it('the environment override of admin.publicUrl goes through the same check', () => {
    expect(errorOf(() => loadConfig({ env: { DOCS_APPLIANCE_ADMIN_PUBLIC_URL: 'javascript:alert(1)' }, cwd: tmp() }))).toContain('- admin.publicUrl: must be an http:// or https:// URL');
  });

  it('reads a config file saved with a UTF-8 byte order mark', () => {
    const dir = tmp();
    const file = writeJson(dir, `\uFEFF${JSON.stringify({ stateDir: '/bom', organizations: [org] })}`);
    expect(fs.readFileSync(file).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const config = loadConfig({ file, env: {}, cwd: dir });
    expect(config.stateDir).toBe('/bom');
    expect(config.organizations).toEqual([org]);
    // Only a leading mark: one anywhere else is still invalid JSON.
    expect(errorOf(() => loadConfig({ file: writeJson(dir, `{"stateDir": "/x"}\uFEFF`), env: {}, cwd: dir }))).toMatch(/is not valid JSON/);
  });
});
