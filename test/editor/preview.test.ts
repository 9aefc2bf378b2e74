import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEditorPreview, type EditorPreview } from '../../app/editor/preview.js';
import { ApiError } from '../../app/errors.js';
import { exportSite } from '../../renderer/index.js';
import { quietAppliance, QUIET_SCRIPT_PATH, rebaseCss, rebaseHtml } from '../../renderer/preview/rebase.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

const BASE = '/console/orgs/o1/projects/p1/editor/preview-assets/';
const EXAMPLE = path.resolve(import.meta.dirname, '../../example-docs');
const ISLANDS = path.resolve(import.meta.dirname, '../fixtures/sites/islands');

let tmp: string;
let docs: string;
let preview: EditorPreview;

/** The page's `<main>` element: where a page's own content sits in the site's layout. */
const mainOf = (html: string): string => {
  const m = /<main\b[\s\S]*<\/main>/.exec(html);
  if (!m) throw new Error('no <main> in the page');
  return m[0];
};

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'editor-preview-'));
  docs = path.join(tmp, 'docs');
  fs.cpSync(EXAMPLE, docs, { recursive: true });
  preview = createEditorPreview({ pool: sharedRenderPool(1), assetBase: () => BASE });
});

afterAll(async () => {
  await preview.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const read = (rel: string): string => fs.readFileSync(path.join(docs, rel), 'utf8');
const render = (relPath: string, content: string, extra: { dark?: boolean; projectId?: string; docsRoot?: string } = {}) =>
  preview.render({ projectId: extra.projectId ?? 'p1', docsRoot: extra.docsRoot ?? docs, relPath, content, ...(extra.dark === undefined ? {} : { dark: extra.dark }) });

describe('editor live preview', () => {
  it('renders a page as the export renders it: the same document, its links under the asset base', async () => {
    // The whole site: a one-page export (`paths`) plans only that page, so its pager and breadcrumb differ.
    const exported = await exportSite({ sourceDir: docs, pool: sharedRenderPool(1) });
    const page = Buffer.from(exported.files.get('quickstart/index.html') as Uint8Array).toString('utf8');
    const r = await render('quickstart.mdx', read('quickstart.mdx'));
    expect(r.errors).toEqual([]);
    expect(mainOf(r.html)).toBe(mainOf(rebaseHtml(page, BASE)));
    // Same template, theme and navigation: the whole document is the export's, rebased, with the
    // stand-in that keeps the site's scripts from calling a site listener the editor does not have.
    expect(r.html).toBe(quietAppliance(rebaseHtml(page, BASE), BASE));
    expect(r.html.indexOf(QUIET_SCRIPT_PATH)).toBeLessThan(r.html.indexOf('<script', r.html.indexOf(QUIET_SCRIPT_PATH)));
    expect(r.html).toMatch(/<link rel="stylesheet" href="\/console\/orgs\/o1\/projects\/p1\/editor\/preview-assets\/_static\/site\.[0-9a-f]+\.css">/);
    expect(r.html).not.toMatch(/\s(?:href|src)="\/(?!\/|console\/)/);
    expect(r.html).toContain('http-equiv="Content-Security-Policy"');
    expect(r.ms).toBeGreaterThan(0);
  });

  it('shows the unsaved content in place of the file, with the sidebar of the whole site', async () => {
    const r = await render('quickstart.mdx', `${read('quickstart.mdx')}\n\n## Typed just now\n\nAn **unsaved** sentence.\n`);
    expect(r.errors).toEqual([]);
    expect(r.html).toContain('Typed just now');
    expect(r.html).toContain('An <strong>unsaved</strong> sentence.');
    // The navigation links other pages of the site (rebased).
    expect(r.html).toContain(`href="${BASE}guides/components/"`);
    expect(read('quickstart.mdx')).not.toContain('Typed just now');
  });

  it('shows a snippet saved on disk and a docs.json change on the next render', async () => {
    const page = read('quickstart.mdx');
    const before = await render('quickstart.mdx', page);
    expect(before.html).not.toContain('Snippet edited on disk');
    fs.writeFileSync(path.join(docs, 'snippets/admin-key-note.mdx'), '<Note>Snippet edited on disk.</Note>\n');
    const after = await render('quickstart.mdx', page);
    expect(after.html).toContain('Snippet edited on disk.');

    const config = JSON.parse(read('docs.json')) as { name: string };
    fs.writeFileSync(path.join(docs, 'docs.json'), JSON.stringify({ ...config, name: 'Renamed In The Editor' }, null, 2));
    const renamed = await render('quickstart.mdx', page);
    expect(renamed.html).toContain('Renamed In The Editor');
  });

  it('after a saved page, answers from the warm plan at once and replans behind it (navigation titles follow)', async () => {
    const page = read('quickstart.mdx');
    await render('quickstart.mdx', page);
    const other = read('guides/agent-jobs.mdx');
    fs.writeFileSync(path.join(docs, 'guides/agent-jobs.mdx'), other.replace(/^title: .*$/m, 'title: "Retitled on disk"'));
    const first = await render('quickstart.mdx', `${page}\n\nRight after the save.\n`);
    expect(first.errors).toEqual([]);
    expect(first.html).toContain('Right after the save.');
    let html = first.html;
    for (let i = 0; i < 50 && !html.includes('Retitled on disk'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      html = (await render('quickstart.mdx', page)).html;
    }
    expect(html).toContain('Retitled on disk');
  });

  it('gives an MDX error as file:line:column and keeps the last good render under a banner', async () => {
    const good = await render('guides/components.mdx', `${read('guides/components.mdx')}\n\nLast good words.\n`);
    expect(good.errors).toEqual([]);
    const broken = await render('guides/components.mdx', `${read('guides/components.mdx')}\n\n<Card title="x">\n\nnever closed\n`);
    expect(broken.errors).toHaveLength(1);
    const [e] = broken.errors;
    expect(e?.file).toBe('guides/components.mdx');
    expect(e?.line).toBeGreaterThan(1);
    expect(e?.message).toMatch(/Card/);
    expect(broken.html).toContain('Last good words.');
    expect(broken.html).not.toContain('never closed');
    expect(broken.html).toContain('role="alert"');
    expect(broken.html).toContain(`guides/components.mdx:${e?.line}`);

    // An expression error carries a column as well.
    const expr = await render('guides/components.mdx', 'Line one\n\nvalue {1 +}\n');
    expect(expr.errors[0]).toMatchObject({ file: 'guides/components.mdx', line: 3 });
    expect(expr.errors[0]?.column).toBeGreaterThan(0);
    expect(expr.html).toContain('Last good words.');
  });

  it('falls back to the page as saved when the first render already fails, never a blank page', async () => {
    const r = await render('guides/install-air-gapped.mdx', '# Title\n\n<Steps>\n');
    expect(r.errors[0]?.file).toBe('guides/install-air-gapped.mdx');
    expect(r.html).toContain('<main');
    expect(r.html).toContain('role="alert"');
  });

  it('names a broken docs.json at its line and goes on showing the last plan', async () => {
    const root = path.join(tmp, 'config-broken');
    fs.cpSync(EXAMPLE, root, { recursive: true });
    const page = fs.readFileSync(path.join(root, 'quickstart.mdx'), 'utf8');
    expect((await render('quickstart.mdx', page, { docsRoot: root, projectId: 'p2' })).errors).toEqual([]);
    fs.writeFileSync(path.join(root, 'docs.json'), '{\n  "name": "x",\n  "navigation": [\n');
    const r = await render('quickstart.mdx', `${page}\n\nStill previewed.\n`, { docsRoot: root, projectId: 'p2' });
    expect(r.errors[0]?.file).toBe('docs.json');
    expect(r.errors[0]?.line).toBeGreaterThan(0);
    expect(r.html).toContain('Still previewed.');
  });

  it('renders a snippet or a page not yet in the navigation on its own, with the site chrome', async () => {
    const snippet = await render('snippets/admin-key-note.mdx', '<Tip>Only the snippet.</Tip>\n');
    expect(snippet.errors).toEqual([]);
    expect(snippet.html).toContain('Only the snippet.');
    const fresh = await render('guides/brand-new.mdx', '---\ntitle: Brand new\n---\n\nNot saved yet.\n');
    expect(fresh.errors).toEqual([]);
    expect(fresh.html).toContain('Not saved yet.');
    expect(fresh.html).toContain('<title>Brand new');
  });

  it('forces the site’s own dark mode when asked (theme-init reads a strict appearance first)', async () => {
    const dark = await render('quickstart.mdx', read('quickstart.mdx'), { dark: true });
    expect(dark.html).toMatch(/^<!doctype html>\s*<html data-theme="dark" data-appearance="dark" data-appearance-strict="true" /);
    const light = await render('quickstart.mdx', read('quickstart.mdx'), { dark: false });
    expect(light.html).toMatch(/<html data-theme="light" data-appearance="light" data-appearance-strict="true" /);
    const site = await render('quickstart.mdx', read('quickstart.mdx'));
    expect(site.html).not.toContain('data-appearance-strict="true"');
  });

  it('refuses paths outside the docs root, links out of it and files that are not pages', async () => {
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.mdx'), 'secret');
    fs.symlinkSync(outside, path.join(docs, 'linked'));
    for (const relPath of ['../outside/secret.mdx', '/etc/passwd.mdx', 'guides/../../x.mdx', 'linked/secret.mdx', 'a\\b.mdx', 'docs.json']) {
      const err = await render(relPath, 'x').then(() => undefined, (e: unknown) => e);
      expect(err, relPath).toBeInstanceOf(ApiError);
      expect((err as ApiError).status, relPath).toBe(400);
    }
  });

  it('serves the site-wide assets the page links: stylesheets (relative urls), scripts, images, other pages', async () => {
    const r = await render('guides/static-export.mdx', read('guides/static-export.mdx'));
    const links = [...r.html.matchAll(/(?:href|src)="\/console\/orgs\/o1\/projects\/p1\/editor\/preview-assets\/([^"#?]+)"/g)].map((m) => m[1] as string);
    const css = links.find((l) => /^_static\/site\.[0-9a-f]+\.css$/.test(l)) as string;
    const js = links.find((l) => /^_static\/site\.[0-9a-f]+\.js$/.test(l)) as string;
    const image = links.find((l) => l.endsWith('.svg') && !l.includes('favicon'));
    expect(css && js && image).toBeTruthy();
    const sheet = await preview.asset('p1', docs, css);
    expect(sheet?.type).toBe('text/css; charset=utf-8');
    expect(sheet?.body.toString('utf8')).not.toMatch(/url\(\s*["']?\/(?!\/)/);
    expect((await preview.asset('p1', docs, js))?.type).toBe('text/javascript; charset=utf-8');
    const img = await preview.asset('p1', docs, image as string);
    expect(img?.type).toBe('image/svg+xml');
    expect(img?.body.toString('utf8')).toContain('<svg');
    // A link followed inside the preview: the page as saved, its links relative to it.
    const other = await preview.asset('p1', docs, 'guides/components/');
    expect(other?.type).toBe('text/html; charset=utf-8');
    expect(other?.body.toString('utf8')).toMatch(/href="\.\.\/\.\.\/_static\/site\.[0-9a-f]+\.css"/);
    expect(await preview.asset('p1', docs, '_static/nope.css')).toBeUndefined();
    expect(await preview.asset('p1', docs, '../docs.json')).toBeUndefined();
    expect(await preview.asset('p1', docs, 'docs.json')).toBeUndefined();
  });

  it('runs components: the island scripts and the Tailwind stylesheet are served', async () => {
    const root = path.join(tmp, 'islands');
    fs.cpSync(ISLANDS, root, { recursive: true });
    const r = await render('index.mdx', fs.readFileSync(path.join(root, 'index.mdx'), 'utf8'), { docsRoot: root, projectId: 'p3' });
    expect(r.errors).toEqual([]);
    const assets = [...r.html.matchAll(/preview-assets\/(_static\/[^"]+)"/g)].map((m) => m[1] as string);
    const islands = assets.filter((a) => a.startsWith('_static/islands/'));
    // The runtime, then the page's own module and its snippets' (compiled by the worker as it rendered).
    expect(islands.some((a) => /^_static\/islands\/runtime\.[0-9a-f]+\.js$/.test(a))).toBe(true);
    expect(islands.some((a) => /^_static\/islands\/snippets-counter\.[0-9a-f]+\.js$/.test(a))).toBe(true);
    for (const a of islands) {
      const file = await preview.asset('p3', root, a);
      expect(file?.type, a).toBe('text/javascript; charset=utf-8');
      expect(file?.body.length, a).toBeGreaterThan(0);
    }
    expect(r.html).toContain('data-island="snippets/counter.jsx#Counter"');
    const tailwind = assets.find((a) => /^_static\/tailwind\.[0-9a-f]+\.css$/.test(a)) as string;
    expect(tailwind).toBeDefined();
    const css = (await preview.asset('p3', root, tailwind))?.body.toString('utf8') ?? '';
    // The stylesheet the export writes for the same site, at the same content-hashed path.
    const exported = await exportSite({ sourceDir: root, pool: sharedRenderPool(1) });
    const written = exported.files.get(tailwind);
    expect(written).toBeDefined();
    expect(css).toBe(rebaseCss(Buffer.from(written as Uint8Array).toString('utf8'), tailwind));
    expect(css).toContain('--tw-');
  });
});
