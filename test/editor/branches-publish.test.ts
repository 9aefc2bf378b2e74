import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import { publishServiceOf } from '../console/helpers.js';
import { apiBase, editorClient, gitAppliance, gitOf, pushOutside, type TestAppliance } from './helpers.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const api = apiBase();
const served = (t: TestAppliance, host = 'docs.test.internal', url = '/') => supertest(t.site).get(url).set('Host', host);

async function setup(options: Parameters<typeof gitAppliance>[0] = {}) {
  const g = gitAppliance(options);
  cleanups.push(() => g.repo.remove(), () => g.a.close());
  await g.a.start();
  const c = await editorClient(g.a.admin, g.a.createKey(TEST_ORG));
  const open = async (path: string, branch: string) => (await c.get(`${api}/file?branch=${branch}&path=${encodeURIComponent(path)}`).expect(200)).body as { content: string; sha: string };
  const save = async (path: string, branch: string, edit: (s: string) => string) => {
    const f = await open(path, branch);
    return c.put(`${api}/file`, { branch, path, content: edit(f.content), baseSha: f.sha }).expect(200);
  };
  return { ...g, t: g.a, c, open, save };
}

describe('branches, previews and publishing from the editor', { timeout: 180_000 }, () => {
  test('create a branch, save on it, deploy its preview, publish it: the served site changes', async () => {
    const { t, repo, c, save } = await setup();
    const created = await c.post(`${api}/branches`, { name: 'draft' }).expect(201);
    expect(created.body).toEqual({ name: 'draft', head: repo.head() });
    await c.post(`${api}/branches`, { name: 'draft' }).expect(409, /BRANCH_EXISTS/);
    await c.post(`${api}/branches`, { name: '-x' }).expect(400);
    await c.post(`${api}/branches`, { name: 'other', from: 'missing' }).expect(404, /BRANCH_NOT_FOUND/);

    await save('index.mdx', 'draft', (s) => s.replace('Welcome to the tiny docs.', 'A draft from the editor.'));
    expect(repo.head('main')).toBe(created.body.head);

    const deployed = await c.post(`${api}/deploy-preview`, { branch: 'draft' }).expect(202);
    expect(deployed.body).toMatchObject({ previewUrl: 'http://draft.preview.docs.test.internal/', publishId: expect.any(String) });
    await c.post(`${api}/deploy-preview`, { branch: 'nope' }).expect(404, /BRANCH_NOT_FOUND/);
    await publishServiceOf(t).idle();
    expect((await served(t, 'draft.preview.docs.test.internal').expect(200)).text).toContain('A draft from the editor.');
    const state = await c.get(`${api}/state`).expect(200);
    expect(state.body.branches).toEqual([
      { name: 'main', head: repo.head('main') },
      { name: 'draft', head: repo.head('draft'), preview: { url: 'http://draft.preview.docs.test.internal/', status: 'success' } },
    ]);

    const published = await c.post(`${api}/publish`, { branch: 'draft' }).expect(202);
    expect(published.body).toMatchObject({ publishId: expect.any(String), merged: repo.head('main') });
    // A merge commit on main, authored by the writer, with the draft as its second parent.
    expect(gitOf(repo.bare, ['rev-parse', 'main^2'])).toBe(repo.head('draft'));
    expect(gitOf(repo.bare, ['log', '-1', '--format=%an|%s', 'main'])).toMatch(/^key .+\|Publish draft \(merged by key /);
    await publishServiceOf(t).idle();
    expect(publishServiceOf(t).status(published.body.publishId)).toMatchObject({ kind: 'publish', status: 'success', commitSha: published.body.merged });
    expect((await served(t).expect(200)).text).toContain('A draft from the editor.');
    // The audit log names who published.
    expect(t.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 50, offset: 0 }).map((e) => e.action)).toEqual(expect.arrayContaining(['editor.branch-create', 'editor.deploy-preview', 'publish.start']));

    // Publishing the default branch itself publishes it, with nothing to merge.
    const again = await c.post(`${api}/publish`, { branch: 'main' }).expect(202);
    expect(again.body.merged).toBe(repo.head('main'));
    await publishServiceOf(t).idle();
  });

  test('a branch that does not merge cleanly is refused with the conflicting files; main is unchanged', async () => {
    const { repo, c, save } = await setup();
    await c.post(`${api}/branches`, { name: 'clash' }).expect(201);
    await save('index.mdx', 'clash', (s) => s.replace('Welcome to the tiny docs.', 'Branch wording.'));
    pushOutside(repo.bare, { 'docs/index.mdx': '---\ntitle: Home\n---\n\nMain wording.\n' }, 'Main edit');
    const mainHead = repo.head('main');
    const res = await c.post(`${api}/publish`, { branch: 'clash' }).expect(409);
    expect(res.body).toMatchObject({ code: 'MERGE_CONFLICT', files: ['index.mdx'] });
    expect(repo.head('main')).toBe(mainHead);
  });

  test('rename a page with a redirect: one commit, docs.json references and redirects updated and valid', async () => {
    const { t, repo, c } = await setup();
    const res = await c.post(`${api}/rename`, { branch: 'main', from: 'guides/intro.mdx', to: 'start/introduction.mdx', redirect: true }).expect(200);
    expect(res.body.commit).toBe(repo.head());
    expect(gitOf(repo.bare, ['diff', '--name-status', '-M', 'main~1', 'main']).split('\n').sort()).toEqual(['M\tdocs/docs.json', 'R100\tdocs/guides/intro.mdx\tdocs/start/introduction.mdx']);
    const docsJson = JSON.parse(gitOf(repo.bare, ['show', 'main:docs/docs.json']));
    expect(docsJson.navigation).toEqual({ groups: [{ group: 'Start', pages: ['index', 'start/introduction'] }] });
    expect(docsJson.redirects).toEqual([{ source: '/guides/intro', destination: '/start/introduction' }]);
    expect(docsJson.name).toBe('Tiny');
    // The renamed site publishes (docs.json valid for the renderer), and the old URL redirects.
    await c.post(`${api}/publish`, { branch: 'main' }).expect(202);
    await publishServiceOf(t).idle();
    expect(publishServiceOf(t).history(TEST_PROJECT, 1)[0]).toMatchObject({ status: 'success' });
    await served(t, 'docs.test.internal', '/start/introduction').expect(200, /Run the installer/);
    // The exported site answers the old URL with its redirect page to the new one.
    const old = await served(t, 'docs.test.internal', '/guides/intro').expect(200);
    expect(old.text).toMatch(/http-equiv="refresh"[^>]*\/start\/introduction/);
    expect(old.text).not.toContain('Run the installer');

    // Without a redirect: only the reference moves. Onto an existing file: refused.
    await c.post(`${api}/rename`, { branch: 'main', from: 'start/introduction.mdx', to: 'index.mdx', redirect: false }).expect(409, /EDITOR_FILE_EXISTS/);
    await c.post(`${api}/rename`, { branch: 'main', from: 'missing.mdx', to: 'x.mdx', redirect: false }).expect(404, /EDITOR_FILE_NOT_FOUND/);
    await c.post(`${api}/rename`, { branch: 'main', from: 'start/introduction.mdx', to: 'intro.mdx', redirect: false }).expect(200);
    const after = JSON.parse(gitOf(repo.bare, ['show', 'main:docs/docs.json']));
    expect(after.navigation.groups[0].pages).toEqual(['index', 'intro']);
    expect(after.redirects).toHaveLength(1);
  });

  test('upload images: type sniffed from the bytes, name checked, size capped, confined to the docs root', async () => {
    const { t, repo, c } = await setup({ config: { editor: { maxUploadBytes: 2048 } } });
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const up = (p: string, body: Buffer, type = 'image/png') => c.agent.post(`${api}/upload?branch=main&path=${encodeURIComponent(p)}`).set('X-CSRF-Token', c.csrf).set('Content-Type', type).send(body);
    const ok = await up('images/logo.png', png).expect(201);
    expect(ok.body).toMatchObject({ path: 'images/logo.png', commit: repo.head() });
    expect(Buffer.from(gitOf(repo.bare, ['cat-file', '-s', 'main:docs/images/logo.png']))).toBeTruthy();
    expect(gitOf(repo.bare, ['log', '-1', '--format=%s'])).toBe('Upload images/logo.png');
    const before = repo.head();
    expect((await up('images/logo.png', png)).body.code).toBe('EDITOR_FILE_EXISTS');
    expect((await up('images/fake.png', Buffer.from('<script>alert(1)</script>'))).body.code).toBe('EDITOR_UPLOAD_REFUSED');
    expect((await up('images/x.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml')).status).toBe(415);
    expect((await up('images/page.html', png)).body.code).toBe('EDITOR_UPLOAD_REFUSED');
    expect((await up('images/a.png', png, 'text/plain')).body.code).toBe('EDITOR_UPLOAD_REFUSED');
    expect((await up('../escape.png', png)).body.code).toBe('EDITOR_PATH_REFUSED');
    const big = await up('images/big.png', Buffer.concat([png, Buffer.alloc(4096)]));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(repo.head()).toBe(before);
    void t;
  });

  test('open a pull request on the Git host through the agent client; refused without a host', async () => {
    const requests: Array<{ url: string; body: unknown; auth: string | undefined }> = [];
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        requests.push({ url: `${req.method} ${req.url}`, body: raw ? JSON.parse(raw) : null, auth: req.headers.authorization });
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ html_url: 'http://git.corp.internal/acme/docs/pulls/7' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    process.env.EDITOR_TEST_GITEA_TOKEN = 'secret-token';
    cleanups.push(() => void delete process.env.EDITOR_TEST_GITEA_TOKEN);
    const { c } = await setup({ project: { gitHost: { type: 'gitea', apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, tokenEnv: 'EDITOR_TEST_GITEA_TOKEN' } } });
    await c.post(`${api}/branches`, { name: 'proposal' }).expect(201);
    await c.post(`${api}/pull-request`, { branch: 'main', title: 'x' }).expect(400);
    await c.post(`${api}/pull-request`, { branch: 'missing', title: 'x' }).expect(404, /BRANCH_NOT_FOUND/);
    const res = await c.post(`${api}/pull-request`, { branch: 'proposal', title: 'Propose a change', description: 'Why it helps' }).expect(201);
    expect(res.body).toEqual({ url: 'http://git.corp.internal/acme/docs/pulls/7' });
    expect(requests).toEqual([{ url: 'POST /api/v1/repos/acme/docs/pulls', body: { title: 'Propose a change', body: 'Why it helps', head: 'proposal', base: 'main' }, auth: 'token secret-token' }]);
  });

  test('without a gitHost the pull request is refused', async () => {
    const { c } = await setup();
    await c.post(`${api}/branches`, { name: 'proposal' }).expect(201);
    await c.post(`${api}/pull-request`, { branch: 'proposal', title: 'x' }).expect(409, /NO_GIT_HOST/);
  });
});
