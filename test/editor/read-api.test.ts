import { afterEach, describe, expect, test } from 'vitest';
import { OTHER_PROJECT, OTHER_ORG, TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import { apiBase, editorBase, editorClient, gitAppliance, type TestAppliance } from './helpers.js';
import { gitBlobSha } from '../../app/editor/workspace.js';

let a: TestAppliance | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await a?.close();
  cleanup?.();
  a = undefined;
  cleanup = undefined;
});

describe('editor read API over a Git source', { timeout: 60_000 }, () => {
  test('state, tree and file answer from the branch tip of the real repository', async () => {
    const g = gitAppliance();
    const t = (a = g.a);
    cleanup = g.repo.remove;
    const c = await editorClient(t.admin, t.createKey(TEST_ORG, { scopes: ['read'] }));

    const state = await c.get(`${apiBase()}/state`).expect(200);
    expect(state.headers['cache-control']).toBe('no-store');
    expect(state.body).toMatchObject({ source: 'git', defaultBranch: 'main', canWrite: false, branches: [{ name: 'main', head: g.repo.head() }] });
    expect(state.body.user.name).toMatch(/^key /);

    const tree = await c.get(`${apiBase()}/tree?branch=main`).expect(200);
    expect(tree.body.head).toBe(g.repo.head());
    expect(tree.body.entries).toEqual([
      { path: 'docs.json', kind: 'config', size: expect.any(Number) },
      { path: 'guides/intro.mdx', kind: 'page', size: expect.any(Number) },
      { path: 'index.mdx', kind: 'page', size: expect.any(Number) },
    ]);

    const file = await c.get(`${apiBase()}/file?branch=main&path=index.mdx`).expect(200);
    expect(file.body.content).toContain('Welcome to the tiny docs.');
    expect(file.body.sha).toBe(gitBlobSha(Buffer.from(file.body.content)));
    expect(file.body.head).toBe(g.repo.head());

    // A commit pushed by someone else is what the next read sees.
    const next = g.repo.commit({ 'docs/index.mdx': '---\ntitle: Home\n---\n\nChanged upstream.\n' }, 'Upstream edit');
    const again = await c.get(`${apiBase()}/file?branch=main&path=index.mdx`).expect(200);
    expect(again.body).toMatchObject({ content: expect.stringContaining('Changed upstream.'), head: next });

    await c.get(`${apiBase()}/file?branch=main&path=missing.mdx`).expect(404, /EDITOR_FILE_NOT_FOUND/);
    await c.get(`${apiBase()}/file?branch=nope&path=index.mdx`).expect(404, /BRANCH_NOT_FOUND/);
    await c.get(`${apiBase()}/file?branch=main&path=..%2FREADME.md`).expect(400, /EDITOR_PATH_REFUSED/);
    await c.get(`${apiBase()}/nothing`).expect(404, /ROUTE_NOT_FOUND/);
    // The page is served, and the short address redirects to it.
    await c.get(editorBase()).expect(200, /Editor · Test docs/);
    await c.get(`/console/projects/${TEST_PROJECT}/editor?path=index.mdx`).expect(303).expect('Location', `${editorBase()}?path=index.mdx`);
  });

  test('a directory source lists its one branch; other organizations and signed-out users get nothing', async () => {
    const g = gitAppliance();
    const t = (a = g.a);
    cleanup = g.repo.remove;
    const c = await editorClient(t.admin, t.createKey(TEST_ORG));
    // The short address of another organization's project is not found (no probing).
    await c.get(`/console/projects/${OTHER_PROJECT}/editor`).expect(404);
    await c.get(`${apiBase(OTHER_PROJECT, OTHER_ORG)}/state`).expect(404);
    const other = await editorClient(t.admin, t.createKey(OTHER_ORG));
    const state = await other.get(`${apiBase(OTHER_PROJECT, OTHER_ORG)}/state`).expect(200);
    expect(state.body).toMatchObject({ source: 'directory', defaultBranch: '(directory)', canWrite: true, branches: [{ name: '(directory)', head: expect.stringMatching(/^[0-9a-f]{64}$/) }] });
    const tree = await other.get(`${apiBase(OTHER_PROJECT, OTHER_ORG)}/tree?branch=(directory)`).expect(200);
    // The directory is the repository's root here: its .git is never listed.
    expect(tree.body.entries.map((e: { path: string }) => e.path)).toContain('work/docs/index.mdx');
    expect(tree.body.entries.some((e: { path: string }) => e.path.split('/').includes('.git'))).toBe(false);
    await other.get(`${apiBase(OTHER_PROJECT, OTHER_ORG)}/tree?branch=main`).expect(409, /NOT_A_GIT_SOURCE/);
    const anon = await (await import('supertest')).default(t.admin).get(`${apiBase()}/state`).expect(401);
    expect(anon.body).toMatchObject({ code: 'SIGN_IN_REQUIRED' });
  });
});
