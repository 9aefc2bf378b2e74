import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadThemeAssets, THEME_ASSET_NAMES } from '../../../renderer/theme/assets.js';
import { SEARCH_BASE_URL, SEARCH_INDEX_OPTIONS } from '../../../renderer/search-options.js';

describe('loadThemeAssets', () => {
  const assets = loadThemeAssets();

  it('provides every asset the layout refers to, under _static/ with unique content-hashed names', () => {
    const names = assets.map((a) => a.name);
    for (const name of Object.values(THEME_ASSET_NAMES)) expect(names).toContain(name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(assets.map((a) => a.bundlePath)).size).toBe(assets.length);
    for (const a of assets) {
      expect(a.bundlePath.startsWith('_static/'), a.bundlePath).toBe(true);
      const hash = crypto.createHash('sha256').update(a.bytes).digest('hex');
      const m = /\.([0-9a-f]{8,})\.[a-z0-9]+$/.exec(a.bundlePath);
      expect(m, a.bundlePath).not.toBeNull();
      expect(hash.startsWith(m![1]!)).toBe(true);
      expect(a.bytes.byteLength).toBeGreaterThan(0);
    }
  });

  it('bundles the minisearch and mermaid browser builds', () => {
    const mini = assets.find((a) => a.name === 'minisearch.js')!;
    expect(Buffer.from(mini.bytes).toString('utf8')).toContain('MiniSearch');
    const mermaid = assets.find((a) => a.name === 'mermaid.js')!;
    expect(mermaid.bytes.byteLength).toBeGreaterThan(500_000);
  });

  it('rewrites every KaTeX font URL to a bundled, hashed woff2', () => {
    const css = Buffer.from(assets.find((a) => a.name === 'katex.css')!.bytes).toString('utf8');
    const urls = [...css.matchAll(/url\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(15);
    const fontPaths = new Set(assets.filter((a) => a.name.startsWith('katex/fonts/')).map((a) => '/' + a.bundlePath));
    for (const url of urls) {
      expect(url).toMatch(/^\/_static\/katex\/KaTeX_[A-Za-z0-9_-]+\.[0-9a-f]{8,}\.woff2$/);
      expect(fontPaths.has(url), url).toBe(true);
    }
    expect(css).not.toContain('url(fonts/');
  });

  it('is cached per process (same array, no re-read)', () => {
    expect(loadThemeAssets()).toBe(assets);
  });

  it('hashes the files as they are on disk', () => {
    const site = assets.find((a) => a.name === 'site.css')!;
    const onDisk = fs.readFileSync(path.resolve(import.meta.dirname, '../../../renderer/assets/client/site.css'));
    expect(Buffer.from(site.bytes).equals(onDisk)).toBe(true);
  });
});

describe('search options', () => {
  it('search.js loads the index with exactly the options the index stage builds it with', () => {
    const source = fs.readFileSync(path.resolve(import.meta.dirname, '../../../renderer/assets/client/search.js'), 'utf8');
    const block = /\/\/ search-options:begin\s*var SEARCH_OPTIONS = ([^;]+);\s*\/\/ search-options:end/.exec(source);
    expect(block).not.toBeNull();
    const browserOptions: unknown = new Function(`return (${block![1]});`)();
    expect(browserOptions).toEqual(SEARCH_INDEX_OPTIONS);
    expect(source).toContain(`'${SEARCH_BASE_URL}'`);
  });

  it('search.js posts beacons to the same-origin events endpoint', () => {
    const source = fs.readFileSync(path.resolve(import.meta.dirname, '../../../renderer/assets/client/search.js'), 'utf8');
    expect(source).toContain("var EVENTS_URL = '/_/events'");
    expect(source).toContain('keepalive: true');
    expect(source).toMatch(/type: 'search', query: .*resultCount: .*sessionId: /);
    expect(source).toMatch(/type: 'click', query: .*path: path, sessionId: /);
  });
});
