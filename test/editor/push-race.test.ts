import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TEST_ORG } from '../helpers/appliance.js';
import { apiBase, editorClient, gitAppliance, gitOf, pushOutside, type EditorClient, type TestAppliance } from './helpers.js';

let t: TestAppliance;
let repo: ReturnType<typeof gitAppliance>['repo'];
let c: EditorClient;
beforeEach(async () => {
  const g = gitAppliance();
  t = g.a;
  repo = g.repo;
  c = await editorClient(t.admin, t.createKey(TEST_ORG));
});
afterEach(async () => {
  await t.close();
  repo.remove();
});

const api = apiBase();

/**
 * The branch moves between the editor's fetch and its push: the bare repository's pre-receive
 * hook moves main to a prepared commit (someone else's push landing first) on the first push only,
 * so git refuses the editor's ref update as it would for a real race.
 */
function raceOnFirstPush(files: Record<string, string>): string {
  const theirs = pushOutside(repo.bare, files, 'Landed first', 'main', 'racer');
  const hook = path.join(repo.bare, 'hooks', 'pre-receive');
  fs.writeFileSync(hook, `#!/bin/sh\nif [ ! -f "$GIT_DIR/raced" ]; then touch "$GIT_DIR/raced"; unset GIT_QUARANTINE_PATH; git update-ref refs/heads/main ${theirs}; fi\nexit 0\n`, { mode: 0o755 });
  return theirs;
}

describe('a push that loses a race with another push', { timeout: 60_000 }, () => {
  test('another file changed: the save is rebased onto the new tip and pushed again; both changes kept', async () => {
    const file = (await c.get(`${api}/file?branch=main&path=index.mdx`).expect(200)).body;
    const theirs = raceOnFirstPush({ 'docs/guides/intro.mdx': '---\ntitle: Introduction\n---\n\nTheir change.\n' });
    const res = await c.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: `${file.content}My change.\n`, baseSha: file.sha }).expect(200);
    expect(fs.existsSync(path.join(repo.bare, 'raced'))).toBe(true);
    expect(gitOf(repo.bare, ['rev-parse', 'main~1'])).toBe(theirs);
    expect(res.body.commit).toBe(repo.head());
    expect(gitOf(repo.bare, ['show', 'main:docs/index.mdx'])).toContain('My change.');
    expect(gitOf(repo.bare, ['show', 'main:docs/guides/intro.mdx'])).toContain('Their change.');
  });

  test('the same file changed: 409 EDIT_CONFLICT with their version and commit; their push stands', async () => {
    const file = (await c.get(`${api}/file?branch=main&path=index.mdx`).expect(200)).body;
    const theirs = raceOnFirstPush({ 'docs/index.mdx': '---\ntitle: Home\n---\n\nTheir wording.\n' });
    const res = await c.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: file.content.replace('Welcome to the tiny docs.', 'My wording.'), baseSha: file.sha }).expect(409);
    expect(res.body).toMatchObject({ code: 'EDIT_CONFLICT', conflict: { path: 'index.mdx', theirs: '---\ntitle: Home\n---\n\nTheir wording.\n', by: { commit: theirs, message: 'Landed first', author: 'Other Writer <other@test>' } } });
    expect(res.body.conflict.diff).toContain('+My wording.');
    expect(repo.head()).toBe(theirs);
    // The next save starts from the new tip (the clone is reset, the failed rebase undone).
    const now = (await c.get(`${api}/file?branch=main&path=index.mdx`).expect(200)).body;
    expect(now.content).toContain('Their wording.');
    await c.put(`${api}/file`, { branch: 'main', path: 'index.mdx', content: `${now.content}Merged by hand.\n`, baseSha: now.sha }).expect(200);
  });
});
