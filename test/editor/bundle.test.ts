import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildEditor } from '../../scripts/build-editor.mjs';

/**
 * The editor's browser bundle (scripts/build-editor.mjs): it builds into the folder it is given,
 * loads nothing from outside (the only absolute URLs are XML namespaces, the "https://" /
 * "http://" prefixed to a bare `www.` link, and documentation links in libraries' error messages), carries no source map, and stays in
 * its size budget.
 */
// With the visual mode (Tiptap/ProseMirror and the micromark MDX parser the block model runs in
// the browser): 1.46 MB on 2026-12-03.
const BUDGET_JS = 1_600_000;
const BUDGET_CSS = 40_000;
/** Absolute URLs that are data, not loads. */
const ALLOWED_URLS = new Set([
  'http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xhtml', 'http://www.w3.org/1998/Math/MathML', 'http://www.w3.org/1999/xlink', 'https://',
  // The prefix GFM autolinks give a bare `www.` link (micromark, in the visual mode's parser).
  'http://',
  // Documentation links inside error messages of ProseMirror and micromark's MDX extensions (text, never fetched).
  'https://prosemirror.net/docs/guide/#generatable',
  'https://github.com/micromark/micromark-extension-mdx-expression/tree/main/packages/micromark-extension-mdx-expression',
  'https://github.com/micromark/micromark-extension-mdx-jsx',
  'https://github.com/micromark/micromark-extension-mdxjs-esm',
]);

let dir: string;
let js: string;
let css: string;

describe('the editor bundle', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editor-bundle-'));
    await (buildEditor as (o: { outDir: string }) => Promise<unknown>)({ outDir: dir });
    js = fs.readFileSync(path.join(dir, 'editor.js'), 'utf8');
    css = fs.readFileSync(path.join(dir, 'editor.css'), 'utf8');
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes editor.js and editor.css and nothing else (no source map)', () => {
    expect(fs.readdirSync(dir).sort()).toEqual(['editor.css', 'editor.js']);
    expect(js).not.toMatch(/sourceMappingURL/);
    expect(css).not.toMatch(/sourceMappingURL/);
  });

  it('holds CodeMirror and the editor code, minified', () => {
    expect(js).toContain('cm-editor');
    expect(js).toContain('EDIT_CONFLICT');
    // Minified: the sources' comments and long local names are gone.
    expect(js).not.toContain('Small DOM helpers');
    expect(js).not.toContain('resolveConflict');
  });

  it('loads nothing from outside the appliance', () => {
    const urls = new Set([...js.matchAll(/https?:\/\/[^"'`\s)\\]*/g)].map((m) => m[0]));
    expect([...urls].filter((u) => !ALLOWED_URLS.has(u))).toEqual([]);
    expect(css).not.toMatch(/https?:\/\//);
    expect(css).not.toMatch(/@import/);
    // No protocol-relative loads either.
    expect(js).not.toMatch(/["'`]\/\/[a-z0-9-]+\.[a-z]/i);
  });

  it('stays in its size budget', () => {
    expect(Buffer.byteLength(js)).toBeLessThan(BUDGET_JS);
    expect(Buffer.byteLength(css)).toBeLessThan(BUDGET_CSS);
  });

  it('refuses a remote import', async () => {
    const entry = path.join(dir, 'remote.ts');
    fs.writeFileSync(entry, "import 'https://cdn.example/x.js';\n");
    await expect((buildEditor as (o: object) => Promise<unknown>)({ entry, write: false })).rejects.toThrow(/remote import refused: https:\/\/cdn\.example\/x\.js/);
    fs.rmSync(entry);
  });
});
