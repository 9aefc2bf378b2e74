import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import supertest from 'supertest';
import { TEST_ORG } from '../helpers/appliance.js';
import { apiBase, editorClient, gitAppliance, gitOf, pushOutside, type EditorClient, type TestAppliance } from './helpers.js';
import { gitBlobSha } from '../../app/editor/workspace.js';

let t: TestAppliance;
let repo: ReturnType<typeof gitAppliance>['repo'];
let writer: EditorClient;
let second: EditorClient;
beforeEach(async () => {
  const g = gitAppliance();
  t = g.a;
  repo = g.repo;
  writer = await editorClient(t.admin, t.createKey(TEST_ORG));
  second = await editorClient(t.admin, t.createKey(TEST_ORG));
});
afterEach(async () => {
  await t.close();
  repo.remove();
});

const api = apiBase();
const open = async (c: EditorClient, path: string, branch = 'main') => (await c.get(`${api}/file?branch=${branch}&path=${encodeURIComponent(path)}`).expect(200)).body as { content: string; sha: string; head: string };
const show = (ref: string) => gitOf(repo.bare, ['show', ref]);
const log1 = (format: string, ref = 'main') => gitOf(repo.bare, ['log', '-1', `--format=${format}`, ref]);

describe('saving through the editor API', { timeout: 60_000 }, () => {
  test('a save is one commit on the branch, authored by the signed-in user, committed by the appliance', async () => {
    const before = repo.head();
    const file = await open(writer, 'index.mdx');
    const content = file.content.replace('Welcome', 'Hello and welcome');
    const res = await writer.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content, baseSha: file.sha, message: 'Friendlier greeting' }).expect(200);
    expect(res.body).toMatchObject({ path: 'index.mdx', sha: gitBlobSha(Buffer.from(content)), commit: repo.head(), head: repo.head() });
    expect(gitOf(repo.bare, ['rev-parse', 'main~1'])).toBe(before);
    expect(show('main:docs/index.mdx')).toBe(content.trimEnd());
    expect(log1('%s')).toBe('Friendlier greeting');
    expect(log1('%an <%ae>')).toMatch(/^key key_\w+ \(.+…\) <key-key_\w+@docs-appliance\.invalid>$/);
    expect(log1('%cn <%ce>')).toBe('docs-appliance editor <editor@docs-appliance.invalid>');
    // Only the saved file changed.
    expect(gitOf(repo.bare, ['diff', '--name-only', 'main~1', 'main'])).toBe('docs/index.mdx');

    // Saving the same content again makes no empty commit.
    const again = await writer.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content, baseSha: res.body.sha }).expect(200);
    expect(again.body).toMatchObject({ commit: null, head: repo.head() });

    // A new file: baseSha null; a second create of it is refused.
    const created = await writer.put(`${api}/file`, { branch: 'main', path: 'guides/new.mdx', content: '---\ntitle: New\n---\n', baseSha: null }).expect(200);
    expect(log1('%s')).toBe('Create guides/new.mdx');
    expect(created.body.commit).toBe(repo.head());
    await writer.put(`${api}/file`, { branch: 'main', path: 'guides/new.mdx', content: 'x', baseSha: null }).expect(409, /EDITOR_FILE_EXISTS/);

    // Delete, with the sha the writer saw.
    await writer.delete(`${api}/file?branch=main&path=guides/new.mdx&baseSha=0000000000000000000000000000000000000000`).expect(409, /EDIT_CONFLICT/);
    const del = await writer.delete(`${api}/file?branch=main&path=guides/new.mdx&baseSha=${created.body.sha}`).expect(200);
    expect(del.body.commit).toBe(repo.head());
    expect(log1('%s')).toBe('Delete guides/new.mdx');
    await writer.delete(`${api}/file?branch=main&path=guides/new.mdx&baseSha=${created.body.sha}`).expect(404, /EDITOR_FILE_NOT_FOUND/);
  });

  test('a stale save is refused with their version, the diff and who changed it; nothing is overwritten', async () => {
    const mine = await open(writer, 'index.mdx');
    const theirs = await open(second, 'index.mdx');
    const theirContent = theirs.content.replace('Welcome', 'Greetings');
    await second.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: theirContent, baseSha: theirs.sha, message: 'Their edit' }).expect(200);
    const theirHead = repo.head();

    const myContent = mine.content.replace('tiny docs', 'small docs');
    const res = await writer.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: myContent, baseSha: mine.sha }).expect(409);
    expect(res.body).toMatchObject({
      code: 'EDIT_CONFLICT',
      error: expect.any(String),
      conflict: { path: 'index.mdx', theirs: theirContent, theirsSha: gitBlobSha(Buffer.from(theirContent)), by: { commit: theirHead, message: 'Their edit', author: expect.stringMatching(/^key /) } },
    });
    expect(res.body.conflict.diff).toContain('--- theirs/index.mdx');
    expect(res.body.conflict.diff).toContain('-Greetings to the tiny docs.');
    expect(res.body.conflict.diff).toContain('+Welcome to the small docs.');
    expect(repo.head()).toBe(theirHead);
    expect(show('main:docs/index.mdx')).toContain('Greetings');
  });

  test('a save of another file after the branch moved lands on top of the other change (both kept)', async () => {
    const intro = await open(writer, 'guides/intro.mdx');
    const index = await open(second, 'index.mdx');
    await second.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: `${index.content}More.\n`, baseSha: index.sha }).expect(200);
    const theirHead = repo.head();
    // Someone pushes outside the editor too.
    const outside = pushOutside(repo.bare, { 'README.md': 'Changed outside.\n' }, 'Outside change');
    const res = await writer.put(`${api}/file`, { branch: 'main', path: 'guides/intro.mdx', content: `${intro.content}Step two.\n`, baseSha: intro.sha }).expect(200);
    expect(gitOf(repo.bare, ['rev-parse', 'main~1'])).toBe(outside);
    expect(gitOf(repo.bare, ['rev-parse', 'main~2'])).toBe(theirHead);
    expect(res.body.head).toBe(repo.head());
    expect(show('main:docs/index.mdx')).toContain('More.');
    expect(show('main:docs/guides/intro.mdx')).toContain('Step two.');
    expect(show('main:README.md')).toBe('Changed outside.');
  });

  test('a read-role user may read and preview but not change anything', async () => {
    const reader = await editorClient(t.admin, t.createKey(TEST_ORG, { scopes: ['read'] }));
    const file = await open(reader, 'index.mdx');
    const before = repo.head();
    for (const res of [
      await reader.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: 'x', baseSha: file.sha }),
      await reader.delete(`${api}/file?branch=main&path=index.mdx&baseSha=${file.sha}`),
      await reader.post(`${api}/rename`, { branch: 'main', from: 'index.mdx', to: 'home.mdx', redirect: false }),
      await reader.post(`${api}/branches`, { name: 'reader-branch' }),
      await reader.post(`${api}/publish`, { branch: 'main' }),
      await reader.post(`${api}/deploy-preview`, { branch: 'main' }),
      await reader.post(`${api}/pull-request`, { branch: 'main', title: 'x', description: '' }),
      await reader.agent.post(`${api}/upload?branch=main&path=images/x.png`).set('X-CSRF-Token', reader.csrf).set('Content-Type', 'image/png').send(Buffer.from('x')),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('WRITE_ROLE_REQUIRED');
    }
    expect(repo.head()).toBe(before);
    // Previewing changes nothing: allowed, and without a preview renderer it is unavailable.
    await reader.post(`${api}/preview`, { branch: 'main', path: 'index.mdx', content: 'x' }).expect(503, /EDITOR_PREVIEW_UNAVAILABLE/);
  });

  test('a change without the session CSRF token, with a wrong one, or from another Origin is refused', async () => {
    const file = await open(writer, 'index.mdx');
    const body = { branch: 'main', path: 'index.mdx', content: 'hacked', baseSha: file.sha };
    const before = repo.head();
    const missing = await writer.agent.put(`${api}/file`).send(body).expect(403);
    expect(missing.body).toMatchObject({ code: 'CSRF_REJECTED' });
    await writer.agent.put(`${api}/file`).set('X-CSRF-Token', 'x'.repeat(43)).send(body).expect(403, /CSRF_REJECTED/);
    // The other session's token is not this session's.
    await writer.agent.put(`${api}/file`).set('X-CSRF-Token', second.csrf).send(body).expect(403, /CSRF_REJECTED/);
    await writer.agent.put(`${api}/file`).set('X-CSRF-Token', writer.csrf).set('Origin', 'https://evil.example').send(body).expect(403, /CSRF_REJECTED/);
    await writer.agent.delete(`${api}/file?branch=main&path=index.mdx&baseSha=${file.sha}`).expect(403, /CSRF_REJECTED/);
    expect(repo.head()).toBe(before);
    // With the token and a same-origin Origin it goes through.
    const host = '127.0.0.1';
    await writer.agent.put(`${api}/file`).set('Host', host).set('Origin', `http://${host}`).set('X-CSRF-Token', writer.csrf).send({ ...body, content: 'fine\n' }).expect(200);
    // A console form still works with its _csrf field (the header is an alternative, not a replacement).
    await writer.agent.post('/console/sign-out').type('form').send({ _csrf: writer.csrf }).expect(303);
  });

  test('paths outside the docs root, into .git or through a symbolic link are refused', async () => {
    repo.link('docs/outside', '/', 'A link out of the repository');
    repo.link('docs/readme-link.md', '../README.md', 'A link to a file outside the docs root');
    const file = await open(writer, 'index.mdx');
    const before = repo.head();
    for (const p of ['../README.md', '/etc/passwd', 'guides/../../README.md', '.git/config', 'guides/.git/hooks/x', 'a\\b.mdx', 'outside/x.mdx', 'readme-link.md', '', './index.mdx']) {
      const res = await writer.put(`${api}/file`, { branch: 'main', path: p, content: 'x', baseSha: file.sha });
      expect(res.status, p).toBe(400);
      expect(res.body.code, p).toBe('EDITOR_PATH_REFUSED');
    }
    await writer.get(`${api}/file?branch=main&path=readme-link.md`).expect(400, /EDITOR_PATH_REFUSED/);
    await writer.get(`${api}/file?branch=main&path=outside%2Fetc%2Fpasswd`).expect(400, /EDITOR_PATH_REFUSED/);
    await writer.post(`${api}/rename`, { branch: 'main', from: 'index.mdx', to: '../index.mdx', redirect: false }).expect(400, /EDITOR_PATH_REFUSED/);
    await writer.post(`${api}/rename`, { branch: 'main', from: 'index.mdx', to: 'outside/index.mdx', redirect: false }).expect(400, /EDITOR_PATH_REFUSED/);
    expect(repo.head()).toBe(before);
    // Links are not listed in the tree.
    const tree = await writer.get(`${api}/tree?branch=main`).expect(200);
    expect(tree.body.entries.map((e: { path: string }) => e.path)).toEqual(['docs.json', 'guides/intro.mdx', 'index.mdx']);
  });

  test('malformed and oversized bodies get catalogue errors as JSON', async () => {
    const bad = await writer.agent.put(`${api}/file`).set('X-CSRF-Token', writer.csrf).set('Content-Type', 'application/json').send('{"branch": ');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('MALFORMED_JSON');
    await writer.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: 42, baseSha: null }).expect(400, /BAD_REQUEST/);
    await writer.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: 'x' }).expect(400, /baseSha is required/);
    await writer.put(`${api}/file`, { branch: 'bad..name', path: 'index.mdx', content: 'x', baseSha: null }).expect(400, /BAD_REQUEST/);
    const big = await writer.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: 'x'.repeat(t.config.editor.maxBodyBytes + 10), baseSha: null });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
    void supertest;
  });
});
