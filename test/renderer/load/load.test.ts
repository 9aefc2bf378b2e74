import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSite } from '../../../renderer/load/index.js';
import { RenderError } from '../../../renderer/types.js';
import { fixtureSite, tempSite } from './site-fixtures.js';

function loadError(dir: string): RenderError {
  try {
    loadSite(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(RenderError);
    return err as RenderError;
  }
  throw new Error('expected loadSite to fail');
}

describe('load: docs.json', () => {
  it('normalises the config fields', () => {
    const { config, configFile } = loadSite(fixtureSite('basic'));
    expect(configFile).toBe('docs.json');
    expect(config.format).toBe('docs.json');
    expect(config.name).toBe('Acme Docs');
    expect(config.description).toBe('Docs for the Acme widget');
    expect(config.colors).toEqual({ primary: '#0D9373', light: '#55D799', dark: '#0B7A5F' });
    expect(config.logo).toEqual({ light: 'images/logo.png', dark: 'images/logo.png', href: 'https://acme.example' });
    expect(config.favicon).toBe('images/favicon.svg');
    expect(config.appearance).toEqual({ default: 'dark', strict: false });
    expect(config.navbar.links).toEqual([{ label: 'Support', href: 'mailto:help@acme.example' }]);
    expect(config.navbar.primary).toEqual({ label: 'Dashboard', href: 'https://app.acme.example' });
    expect(config.footer.socials).toEqual({ github: 'https://github.com/acme' });
    expect(config.variables).toEqual({ product: 'Widget' });
    expect(config.redirects[0]).toEqual({ source: '/old-start', destination: '/quickstart', permanent: true });
    expect(config.allowUnsafeHtml).toBe(false);
  });

  it('finds custom CSS/JS anywhere except snippets, and applies the ignores', () => {
    const { config, files } = loadSite(fixtureSite('basic'));
    expect(config.customCss).toEqual(['style.css']);
    expect(config.customJs).toEqual(['custom.js']);
    expect(files).not.toContain('README.md');
    expect(files).not.toContain('drafts/wip.mdx');
    expect(files).not.toContain('secret-notes.md');
    expect(files).not.toContain('.mintignore');
    expect(files).toContain('snippets/intro.mdx');
  });

  it('reads the appliance opt-in for raw HTML', () => {
    const dir = tempSite({ 'docs.json': JSON.stringify({ name: 'x', navigation: { pages: [] }, appliance: { allowUnsafeHtml: true } }) });
    expect(loadSite(dir).config.allowUnsafeHtml).toBe(true);
  });

  it('names file, line and column on a JSON syntax error', () => {
    const dir = tempSite({ 'docs.json': '{\n  "name": "x",\n  "navigation": { "pages": [ }\n}\n' });
    const err = loadError(dir);
    expect(err.file).toBe('docs.json');
    expect(err.line).toBe(3);
    expect(err.location).toMatch(/^docs\.json:3:\d+$/);
    expect(err.message).toMatch(/invalid JSON/);
  });

  it('reports a truncated file at its last line', () => {
    const err = loadError(tempSite({ 'docs.json': '{\n  "name": "x",\n' }));
    expect(err.line).toBe(3);
  });

  it('fails clearly without docs.json or mint.json', () => {
    const err = loadError(tempSite({ 'index.mdx': '# hi' }));
    expect(err.message).toMatch(/no docs\.json/);
  });

  it('names the field when a shape is wrong', () => {
    const err = loadError(tempSite({ 'docs.json': JSON.stringify({ name: 'x', navigation: { pages: [] }, redirects: {} }) }));
    expect(err.message).toMatch(/"redirects" must be an array/);
    expect(err.file).toBe('docs.json');
  });
});

describe('load: $ref', () => {
  it('inlines references relative to the referring file and merges sibling keys over them', () => {
    const { config } = loadSite(fixtureSite('refs'));
    expect(config.navbar.links).toEqual([{ label: 'Home', href: 'https://refs.example.com' }]);
    const nav = config.navigation as { tabs: { tab: string; icon?: string; groups?: unknown; pages?: unknown }[] };
    expect(nav.tabs[0]?.tab).toBe('Renamed guides');
    expect(nav.tabs[0]?.icon).toBe('book');
    expect(nav.tabs[0]?.groups).toEqual([{ group: 'Basics', pages: ['guides/one', 'guides/two'] }]);
    expect(nav.tabs[1]).toEqual({ tab: 'API', pages: ['api/ref'] });
  });

  it('rejects a cycle and names the chain', () => {
    const dir = tempSite({
      'docs.json': JSON.stringify({ name: 'x', navigation: { $ref: 'nav/a.json' } }),
      'nav/a.json': JSON.stringify({ tabs: [{ $ref: 'b.json' }] }),
      'nav/b.json': JSON.stringify({ tab: 'B', groups: [{ $ref: 'a.json' }] }),
    });
    const err = loadError(dir);
    expect(err.message).toContain('cycle');
    expect(err.message).toContain('docs.json → nav/a.json → nav/b.json → nav/a.json');
  });

  it('rejects a reference that leaves the repository', () => {
    const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-outer-'));
    fs.writeFileSync(path.join(outer, 'outside.json'), JSON.stringify({ pages: ['secret'] }));
    const repo = path.join(outer, 'repo');
    fs.mkdirSync(repo);
    fs.writeFileSync(path.join(repo, 'docs.json'), JSON.stringify({ name: 'x', navigation: { $ref: '../outside.json' } }));
    const err = loadError(repo);
    expect(err.message).toMatch(/outside the repository/);
    expect(err.file).toBe('docs.json');
  });

  it('rejects a symlink that leads out of the repository', () => {
    const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-outer-'));
    fs.writeFileSync(path.join(outer, 'outside.json'), JSON.stringify({ pages: ['secret'] }));
    const repo = path.join(outer, 'repo');
    fs.mkdirSync(repo);
    fs.symlinkSync(path.join(outer, 'outside.json'), path.join(repo, 'linked.json'));
    fs.writeFileSync(path.join(repo, 'docs.json'), JSON.stringify({ name: 'x', navigation: { $ref: 'linked.json' } }));
    expect(loadError(repo).message).toMatch(/outside the repository/);
  });

  it('names the referenced file on its own syntax error, and a missing target', () => {
    const bad = tempSite({ 'docs.json': JSON.stringify({ name: 'x', navigation: { $ref: 'nav.json' } }), 'nav.json': '{\n "tabs": [,]\n}' });
    const err = loadError(bad);
    expect(err.file).toBe('nav.json');
    expect(err.line).toBe(2);
    const missing = tempSite({ 'docs.json': JSON.stringify({ name: 'x', navigation: { $ref: 'nope.json' } }) });
    expect(loadError(missing).message).toMatch(/not found \(nope\.json\)/);
  });
});

describe('load: legacy mint.json', () => {
  it('maps the legacy fields and keeps tabs/anchors for plan', () => {
    const { config } = loadSite(fixtureSite('legacy'));
    expect(config.format).toBe('mint.json');
    expect(config.name).toBe('Legacy Docs');
    expect(config.logo).toEqual({ light: 'logo.svg', dark: 'logo.svg' });
    expect(config.navbar.links).toEqual([{ label: 'Community', href: 'https://community.example.com' }]);
    expect(config.navbar.primary).toEqual({ label: 'Sign up', href: 'https://app.example.com' });
    expect(config.footer.socials).toEqual({ github: 'https://github.com/legacy' });
    expect(Array.isArray(config.navigation)).toBe(true);
    expect(config.legacy?.['primaryTab']).toEqual({ name: 'Home' });
    expect(config.redirects).toEqual([{ source: '/intro', destination: '/introduction', permanent: true }]);
  });

  it('prefers docs.json when both exist', () => {
    const dir = tempSite({
      'docs.json': JSON.stringify({ name: 'new', navigation: { pages: [] } }),
      'mint.json': JSON.stringify({ name: 'old', navigation: [] }),
    });
    expect(loadSite(dir).config.name).toBe('new');
  });
});
