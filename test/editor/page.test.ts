import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { EDITOR_CSP, renderEditorPage, type EditorPageModel } from '../../app/editor/page.js';
import { createEditorStaticRouter } from '../../app/editor/static.js';

/** The editor page shell and its bundle route, on a bare Express app (the console's guards are the router's job). */
const base = '/console/orgs/org_test/projects/p1/editor';
function app(model: Partial<EditorPageModel> = {}) {
  const a = express();
  a.get(base, (req, res) =>
    renderEditorPage(req, res, {
      org: { id: 'org_test', name: 'Test' },
      project: { id: 'p1', name: 'Docs <b>' },
      role: 'write',
      user: { name: 'Ada', csrf: 'tok</script><x>' },
      editorBase: base,
      ...model,
    }),
  );
  a.use(`${base}/static`, createEditorStaticRouter());
  return supertest(a);
}

describe('the editor page', () => {
  it('has its own CSP with no outside source and loads only the appliance’s script and style', async () => {
    const res = await app().get(base).expect(200);
    expect(res.headers['content-security-policy']).toBe(EDITOR_CSP);
    expect(EDITOR_CSP).toMatch(/default-src 'none'/);
    expect(EDITOR_CSP).toMatch(/script-src 'self';/);
    expect(EDITOR_CSP).not.toMatch(/https?:|\*/);
    expect(res.headers['cache-control']).toBe('no-store');
    const srcs = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(srcs.filter((s) => !s.startsWith('/') && !s.startsWith('#'))).toEqual([]);
    expect(res.text).toContain(`<script src="${base}/static/editor.js" defer></script>`);
    expect(res.text).toContain(`href="${base}/static/editor.css"`);
  });

  it('embeds the configuration as JSON data the page cannot break out of', async () => {
    const res = await app().get(base).expect(200);
    const block = /<script type="application\/json" id="editor-config">(.*?)<\/script>/s.exec(res.text)![1]!;
    expect(block).not.toContain('</script>');
    const config = JSON.parse(block) as Record<string, unknown>;
    expect(config).toMatchObject({ apiBase: `${base}/api/`, csrf: 'tok</script><x>', role: 'write', project: { id: 'p1', name: 'Docs <b>' } });
    expect(res.text).toContain('Docs &#60;b&#62;');
  });

  it('labels its controls and disables the write controls for the read role', async () => {
    const res = await app({ role: 'read' }).get(base).expect(200);
    for (const label of ['Branch', 'Search files']) expect(res.text).toContain(`>${label}</label>`);
    expect(res.text).toMatch(/<button type="button" id="save" disabled aria-disabled="true"/);
    expect(res.text).toContain('Read role: you can view, not save.');
    const write = await app().get(base).expect(200);
    expect(write.text).toMatch(/<button type="button" id="save" aria-keyshortcuts/);
  });

  it('serves the bundle (built in memory when dist/ has none) and nothing else', async () => {
    const js = await app().get(`${base}/static/editor.js`).expect(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.text.length).toBeGreaterThan(100_000);
    const css = await app().get(`${base}/static/editor.css`).expect(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    await app().get(`${base}/static/main.ts`).expect(404);
    await app().get(`${base}/static/..%2Fpage.ts`).expect(404);
  }, 60_000);
});
