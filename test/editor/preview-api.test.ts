import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_ORG } from '../helpers/appliance.js';
import { apiBase, editorClient, gitAppliance, type EditorClient, type TestAppliance } from './helpers.js';

// The live preview through the editor's HTTP API (the renderer side: test/editor/preview.test.ts):
// the page rendered with the unsaved text, its links under the branch's preview-assets base, and
// those assets served from the branch's clone.
describe('editor live preview over HTTP', { timeout: 90_000 }, () => {
  let a: TestAppliance;
  let remove: () => void;
  let writer: EditorClient;
  beforeAll(async () => {
    const g = gitAppliance();
    a = g.a;
    remove = g.repo.remove;
    writer = await editorClient(a.admin, a.createKey(TEST_ORG));
  });
  afterAll(async () => {
    await a?.close();
    remove?.();
  });

  test('the unsaved text renders as the site page, its assets under the branch, and those assets are served', async () => {
    await writer.get(`${apiBase()}/file?branch=main&path=index.mdx`).expect(200);
    const res = await writer.post(`${apiBase()}/preview`, { branch: 'main', path: 'index.mdx', content: '---\ntitle: Home\n---\n\nNot saved yet: **bold**.\n' }).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.errors).toEqual([]);
    expect(res.body.html).toContain('<strong>bold</strong>');
    const css = [...(res.body.html as string).matchAll(/href="([^"]+\.css)"/g)].map((m) => m[1]!);
    expect(css.length).toBeGreaterThan(0);
    const base = /^\/console\/editor-preview\/[^/]+\//.exec(css[0]!)?.[0];
    expect(base).toBeDefined();
    for (const href of css) expect(href.startsWith(base!)).toBe(true);
    // The sandboxed preview frame sends no console cookie: the token in the path is the grant.
    const sheet = await supertest(a.admin).get(css[0]!).expect(200);
    expect(sheet.headers['content-type']).toMatch(/text\/css/);
    // Loadable from the sandboxed (opaque-origin) preview frame.
    expect(sheet.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(sheet.text.length).toBeGreaterThan(100);
    await writer.get(`${base}_static/no-such-file.css`).expect(404);
    // A token altered, forged or of nothing grants nothing.
    const token = base!.split('/')[3]!;
    const [body, mac] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ p: 'aaaaaaaaaaaaaaaaaaaaaaaa', b: 'other', e: Date.now() + 60_000 })).toString('base64url')}.${mac}`;
    const altered = `${body}.${mac![0] === 'A' ? 'B' : 'A'}${mac!.slice(1)}`;
    for (const bad of [altered, forged, 'nothing', `${body}`]) {
      await supertest(a.admin).get(css[0]!.replace(token, bad)).expect(404);
    }
  });

  test('broken MDX answers its file:line and keeps the last good render; a path outside the root is refused', async () => {
    const res = await writer.post(`${apiBase()}/preview`, { branch: 'main', path: 'index.mdx', content: '# Title\n\n<Note>\nnever closed\n' }).expect(200);
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(res.body.errors[0]).toMatchObject({ file: 'index.mdx', line: expect.any(Number) });
    expect(res.body.html).toContain('Not saved yet');
    await writer.post(`${apiBase()}/preview`, { branch: 'main', path: '../secret.mdx', content: 'x' }).expect(400, /EDITOR_PATH_REFUSED/);
    await writer.post(`${apiBase()}/preview`, { branch: 'nope', path: 'index.mdx', content: 'x' }).expect(404, /BRANCH_NOT_FOUND/);
  });
});
