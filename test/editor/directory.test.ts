import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestAppliance, TEST_ORG, type TestAppliance } from '../helpers/appliance.js';
import { publishServiceOf } from '../console/helpers.js';
import { sha256 } from '../../app/editor/workspace.js';
import { apiBase, editorClient } from './helpers.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const api = apiBase();
const D = encodeURIComponent('(directory)');

describe('the editor over a directory-source project', { timeout: 120_000 }, () => {
  test('saves write the directory, each audited; stale saves are refused with the diff; publish publishes the directory', async () => {
    const a = (t = createTestAppliance({ config: { renderer: { threads: 1 } } }));
    await a.start();
    const c = await editorClient(a.admin, a.createKey(TEST_ORG));
    const other = await editorClient(a.admin, a.createKey(TEST_ORG));
    const state = await c.get(`${api}/state`).expect(200);
    expect(state.body).toMatchObject({ source: 'directory', defaultBranch: '(directory)', branches: [{ name: '(directory)' }] });

    const file = (await c.get(`${api}/file?branch=${D}&path=index.mdx`).expect(200)).body;
    expect(file.sha).toBe(sha256(fs.readFileSync(path.join(a.sourceDir, 'index.mdx'))));
    const mine = file.content.replace('Welcome to the tiny docs.', 'Edited in the browser.');
    const saved = await c.put(`${api}/file`, { branch: '(directory)', path: 'index.mdx', content: mine, baseSha: file.sha }).expect(200);
    expect(saved.body).toMatchObject({ path: 'index.mdx', sha: sha256(Buffer.from(mine)), commit: null, head: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(saved.body.head).not.toBe(state.body.branches[0].head);
    expect(fs.readFileSync(path.join(a.sourceDir, 'index.mdx'), 'utf8')).toBe(mine);

    // The second writer still has the old sha: refused, with the diff; the file keeps the first save.
    const stale = await other.put(`${api}/file`, { branch: '(directory)', path: 'index.mdx', content: `${file.content}Mine.\n`, baseSha: file.sha }).expect(409);
    expect(stale.body).toMatchObject({ code: 'EDIT_CONFLICT', conflict: { path: 'index.mdx', theirs: mine, theirsSha: saved.body.sha } });
    expect(stale.body.conflict.diff).toContain('-Edited in the browser.');
    expect(fs.readFileSync(path.join(a.sourceDir, 'index.mdx'), 'utf8')).toBe(mine);

    await c.put(`${api}/file`, { branch: '(directory)', path: 'guides/new.mdx', content: '---\ntitle: New\n---\n\nNew page.\n', baseSha: null }).expect(200);
    await c.post(`${api}/rename`, { branch: '(directory)', from: 'guides/new.mdx', to: 'guides/renamed.mdx', redirect: true }).expect(200);
    expect(fs.existsSync(path.join(a.sourceDir, 'guides', 'renamed.mdx'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(a.sourceDir, 'docs.json'), 'utf8')).redirects).toEqual([{ source: '/guides/new', destination: '/guides/renamed' }]);
    const renamedSha = sha256(fs.readFileSync(path.join(a.sourceDir, 'guides', 'renamed.mdx')));
    await c.delete(`${api}/file?branch=${D}&path=guides/renamed.mdx&baseSha=${renamedSha}`).expect(200);
    expect(fs.existsSync(path.join(a.sourceDir, 'guides', 'renamed.mdx'))).toBe(false);

    // Every write is in the console's audit log, with who made it.
    const entries = a.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 50, offset: 0, ascending: true }).filter((e) => e.action.startsWith('editor.'));
    expect(entries.map((e) => [e.action, e.target])).toEqual([
      ['editor.save', 'index.mdx'],
      ['editor.create', 'guides/new.mdx'],
      ['editor.rename', 'guides/new.mdx'],
      ['editor.delete', 'guides/renamed.mdx'],
    ]);
    expect(entries[0]!.actor).toMatch(/^key /);
    expect(entries[0]!.detail).toMatchObject({ projectId: expect.any(String), sha: saved.body.sha });

    // Git-only actions are refused; so is a branch name other than "(directory)".
    await c.post(`${api}/branches`, { name: 'x' }).expect(409, /NOT_A_GIT_SOURCE/);
    await c.post(`${api}/deploy-preview`, { branch: '(directory)' }).expect(409, /NOT_A_GIT_SOURCE/);
    await c.post(`${api}/pull-request`, { branch: 'x', title: 'x' }).expect(409, /NOT_A_GIT_SOURCE/);
    await c.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: 'x', baseSha: saved.body.sha }).expect(409, /NOT_A_GIT_SOURCE/);

    // A link in the directory does not carry a write outside it.
    fs.symlinkSync('/tmp', path.join(a.sourceDir, 'tmp-link'));
    await c.put(`${api}/file`, { branch: '(directory)', path: 'tmp-link/x.mdx', content: 'x', baseSha: null }).expect(400, /EDITOR_PATH_REFUSED/);
    fs.rmSync(path.join(a.sourceDir, 'tmp-link'));

    const published = await c.post(`${api}/publish`, { branch: '(directory)' }).expect(202);
    expect(published.body).toMatchObject({ publishId: expect.any(String), merged: null });
    await publishServiceOf(a).idle();
    expect((await supertest(a.site).get('/').set('Host', 'docs.test.internal').expect(200)).text).toContain('Edited in the browser.');
  });
});
