import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppliance, TEST_ORG, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { startGitHttpServer } from '../agent/helpers/git-http-server.js';
import { createDocsRepo, hostHeaders, page, pushPayload, sendHook, untilEnded } from './helpers.js';
import type { PublishFeature } from '../../app/publish/feature.js';

/*
 * Issue 19, done-when: a real Git server on 127.0.0.1 (`git http-backend` behind a small Node
 * CGI bridge, a bare repository), webhooks with real signatures, the appliance's own API and
 * its site listener answering by host name.
 */
const GIT_PROJECT = 'dddddddddddddddddddddddd';
const DIR_PROJECT = 'eeeeeeeeeeeeeeeeeeeeeeee';
const SECRET_ENV = 'DOCS_APPLIANCE_TEST_HOOK_SECRET';
const SECRET = 'webhook-secret-for-the-test';

let t: TestAppliance;
let repo: ReturnType<typeof createDocsRepo>;
let gitServer: Awaited<ReturnType<typeof startGitHttpServer>>;
let key: string;
let dirSource: string;
const versionsAt: string[] = [];

const service = () => (t.features.find((f) => f.name === 'publish') as PublishFeature).service;

beforeAll(async () => {
  process.env[SECRET_ENV] = SECRET;
  repo = createDocsRepo();
  gitServer = await startGitHttpServer(repo.root);
  dirSource = writeTinyDocs(path.join(repo.root, 'dir-docs'));
  fs.writeFileSync(path.join(dirSource, 'index.mdx'), '---\ntitle: Home\n---\n\nThe directory project.\n');
  t = createTestAppliance({
    config: {
      renderer: { threads: 1 },
      publish: { previewHostPattern: '{branch}.preview.{domain}', previewScheme: 'http' },
      projects: [
        {
          id: GIT_PROJECT,
          orgId: TEST_ORG,
          name: 'Git docs',
          domain: 'docs.git.internal',
          sourceDir: dirSource,
          repository: gitServer.url(repo.bare),
          branch: 'main',
          publish: { source: 'git', docsPath: 'docs', webhookSecretEnv: SECRET_ENV },
        },
        { id: DIR_PROJECT, orgId: TEST_ORG, name: 'Dir docs', domain: 'docs.dir.internal', sourceDir: dirSource },
      ],
    },
  });
  await t.start();
  key = t.createKey();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await gitServer?.close();
  repo?.remove();
  delete process.env[SECRET_ENV];
});

describe('publishing from a Git repository', { timeout: 120_000 }, () => {
  it('publishes the branch on the hosted update operation; served at the project domain', async () => {
    const started = await t.api(key).post(`/v1/project/update/${GIT_PROJECT}`).expect(202);
    const done = await untilEnded(t, key, started.body.statusId);
    expect(done).toMatchObject({ status: 'success', source: 'api', trigger: 'api', kind: 'publish', commit: { sha: repo.head(), ref: 'refs/heads/main', message: 'Initial docs' } });
    versionsAt.push(done.version!);
    // The slot's first export has nothing to reuse.
    expect(done.stages!.render).toEqual({ mode: 'full', pagesRendered: expect.any(Number), pagesReused: 0 });
    expect(done.stages!.render!.pagesRendered).toBeGreaterThan(1);
    const home = await page(t, 'docs.git.internal').expect(200);
    expect(home.text).toContain('Welcome to the tiny docs');
    // Only the docs path was exported: the repository's README is not a page.
    await page(t, 'docs.git.internal', '/README').expect(404);
  });

  it('serves a pushed commit within 10 s of the signed webhook, and records what changed', async () => {
    const head = repo.commit({ 'docs/index.mdx': '---\ntitle: Home\n---\n\nRelease two is out.\n' }, 'Announce release two');
    const body = pushPayload('main', head);
    const sent = Date.now();
    const hook = await sendHook(t, GIT_PROJECT, hostHeaders('gitea', SECRET, body), body).expect(202);
    for (;;) {
      const r = await page(t, 'docs.git.internal');
      if (r.text.includes('Release two is out')) break;
      expect(Date.now() - sent, 'served within 10 s').toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const status = await untilEnded(t, key, hook.body.statusId);
    expect(status).toMatchObject({ status: 'success', trigger: 'webhook:gitea', source: 'internal', commit: { sha: head, message: 'Announce release two', filesChanged: { added: [], modified: ['docs/index.mdx'], removed: [] } } });
    expect(status.durationMs).toBeGreaterThan(0);
    // Where the time went: Git fetch, render (with the renderer's own stages), verification, swap.
    const stages = status.stages!;
    expect(Object.keys(stages).sort()).toEqual(['activate', 'export', 'exportStages', 'render', 'source', 'verify']);
    // One page's text changed: only its batch was rendered again, the rest came from the slot's memo.
    expect(stages.render).toMatchObject({ mode: 'incremental' });
    expect(stages.render!.pagesRendered).toBeGreaterThanOrEqual(1);
    expect(stages.render!.pagesReused).toBeGreaterThanOrEqual(1);
    // The unchanged files were linked from the version before; the next extraction's directories are ready.
    await service().idle();
    const sites = path.join(t.stateDir, 'published', GIT_PROJECT, 'sites');
    expect(fs.statSync(path.join(sites, '.spare-ready')).isDirectory()).toBe(true);
    const [older, newer] = versionsAt.length ? [versionsAt[0]!, status.version!] : ['', ''];
    const inode = (v: string) => fs.statSync(path.join(sites, v, 'guides', 'intro', 'index.html')).ino;
    expect(inode(newer)).toBe(inode(older));
    const top = stages.source! + stages.export! + stages.verify! + stages.activate!;
    expect(top).toBeLessThanOrEqual(status.durationMs!);
    expect(top).toBeGreaterThan(status.durationMs! * 0.5);
    expect(Object.keys(stages.exportStages!).length).toBeGreaterThan(2);
    expect(Object.values(stages.exportStages!).every((ms) => Number.isInteger(ms) && ms >= 0)).toBe(true);
    versionsAt.push(status.version!);
  });

  it('keeps serving the previous site when a pushed page cannot render; the status names file:line', async () => {
    const head = repo.commit({ 'docs/guides/intro.mdx': '<Note>\nnever closed\n\nbody\n' }, 'Break the introduction');
    const body = pushPayload('main', head);
    const hook = await sendHook(t, GIT_PROJECT, hostHeaders('github', SECRET, body), body).expect(202);
    const status = await untilEnded(t, key, hook.body.statusId);
    expect(status.status).toBe('failure');
    expect(status.summary).toMatch(/guides\/intro\.mdx:1: /);
    // A failure keeps the stages it finished: the checkout ran, the render did not end.
    expect(status.stages!.source).toBeGreaterThanOrEqual(0);
    expect(status.stages!.export).toBeUndefined();
    expect(status.logs.join('\n')).toMatch(/guides\/intro\.mdx:1: /);
    expect(status.endedAt).toBeDefined();
    expect((await page(t, 'docs.git.internal').expect(200)).text).toContain('Release two is out');
    expect((await page(t, 'docs.git.internal', '/guides/intro').expect(200)).text).toContain('Run the installer');
    const metrics = (await supertest(t.admin).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/docs_appliance_publishes_total\{kind="publish",outcome="failure"\} 1/);
    expect(metrics).toMatch(/docs_appliance_publishes_total\{kind="publish",outcome="success"\} 2/);
    // Fixed on the branch again for what follows.
    const fixed = repo.commit({ 'docs/guides/intro.mdx': '---\ntitle: Introduction\n---\n\n## Install\n\nRun the installer.\n' }, 'Fix the introduction');
    const fixBody = pushPayload('main', fixed);
    const again = await sendHook(t, GIT_PROJECT, hostHeaders('gitlab', SECRET, fixBody), fixBody).expect(202);
    const ok = await untilEnded(t, key, again.body.statusId);
    expect(ok).toMatchObject({ status: 'success', trigger: 'webhook:gitlab', source: 'gitlab' });
    versionsAt.push(ok.version!);
  });

  it('refuses a wrong signature or token, and acts on a delivery or a pushed commit once', async () => {
    const body = pushPayload('main', repo.head());
    const forged = { ...hostHeaders('github', 'not-the-secret', body) };
    expect((await sendHook(t, GIT_PROJECT, forged, body).expect(401)).body.error).toMatch(/signature does not match/);
    expect((await sendHook(t, GIT_PROJECT, hostHeaders('gitlab', 'wrong', body), body).expect(401)).body.error).toMatch(/X-Gitlab-Token/);
    // Signed for one body, sent with another.
    const tampered = hostHeaders('gitea', SECRET, body);
    await sendHook(t, GIT_PROJECT, tampered, pushPayload('main', 'f'.repeat(40))).expect(401);
    await sendHook(t, GIT_PROJECT, {}, body).expect(401);
    const huge = JSON.stringify({ ref: 'refs/heads/main', padding: 'x'.repeat(5 * 1024 * 1024) });
    await sendHook(t, GIT_PROJECT, hostHeaders('github', SECRET, huge), huge).expect(413);
    // A replay: the same delivery id, then the same payload under a new id.
    const fresh = repo.commit({ 'docs/extra.mdx': '---\ntitle: Extra\n---\n\nExtra page.\n' }, 'Add a page');
    const freshBody = pushPayload('main', fresh);
    const headers = hostHeaders('github', SECRET, freshBody, 'delivery-1');
    const first = await sendHook(t, GIT_PROJECT, headers, freshBody).expect(202);
    expect((await sendHook(t, GIT_PROJECT, headers, freshBody).expect(200)).body.ignored).toMatch(/already received/);
    expect((await sendHook(t, GIT_PROJECT, hostHeaders('github', SECRET, freshBody, 'delivery-2'), freshBody).expect(200)).body.ignored).toMatch(/already received/);
    // Another branch, and a ping, do nothing.
    const other = pushPayload('feature-x', fresh);
    expect((await sendHook(t, GIT_PROJECT, hostHeaders('github', SECRET, other), other).expect(200)).body.ignored).toMatch(/neither the published branch/);
    expect((await sendHook(t, GIT_PROJECT, { ...hostHeaders('github', SECRET, '{}'), 'X-GitHub-Event': 'ping' }, '{}').expect(200)).body.ignored).toMatch(/not a push/);
    // A project without a secret takes no webhook.
    await sendHook(t, DIR_PROJECT, hostHeaders('github', SECRET, body), body).expect(403);
    const done = await untilEnded(t, key, first.body.statusId);
    expect(done.status).toBe('success');
    versionsAt.push(done.version!);
  });

  it('serves a preview of another branch at its own host, not indexed, while the main site is unchanged', async () => {
    repo.commit({ 'docs/index.mdx': '---\ntitle: Home\n---\n\nA draft of release three.\n' }, 'Draft release three', 'release-3');
    const started = await t.api(key).post(`/v1/project/preview/${GIT_PROJECT}`).send({ branch: 'release-3' }).expect(202);
    expect(started.body.previewUrl).toBe('http://release-3.preview.docs.git.internal/');
    const done = await untilEnded(t, key, started.body.statusId);
    expect(done).toMatchObject({ status: 'success', kind: 'preview', previewUrl: started.body.previewUrl });
    const preview = await page(t, 'release-3.preview.docs.git.internal').expect(200);
    expect(preview.text).toContain('A draft of release three');
    expect(preview.headers['x-robots-tag']).toBe('noindex, nofollow');
    const main = await page(t, 'docs.git.internal').expect(200);
    expect(main.text).toContain('Release two is out');
    expect(main.headers['x-robots-tag']).toBeUndefined();
    // A push to the preview's branch redeploys it.
    const next = repo.commit({ 'docs/index.mdx': '---\ntitle: Home\n---\n\nRelease three, second draft.\n' }, 'Second draft', 'release-3');
    const body = pushPayload('release-3', next);
    const hook = await sendHook(t, GIT_PROJECT, hostHeaders('gitea', SECRET, body), body).expect(202);
    expect((await untilEnded(t, key, hook.body.statusId)).status).toBe('success');
    expect((await page(t, 'release-3.preview.docs.git.internal').expect(200)).text).toContain('second draft');
    // Expiry: past previewTtlHours the preview is gone; its host is an unknown host again, which
    // gets the default (here the only published site).
    t.clock.advance((t.config.publish.previewTtlHours + 1) * 3600_000);
    expect(service().expirePreviews()).toBe(1);
    const gone = await page(t, 'release-3.preview.docs.git.internal').expect(200);
    expect(gone.text).not.toContain('second draft');
    expect(gone.headers['x-robots-tag']).toBeUndefined();
    expect(fs.existsSync(path.join(t.stateDir, 'previews', GIT_PROJECT, 'release-3.preview.docs.git.internal'))).toBe(false);
  });

  it('rolls back to a kept version from the API, recorded like a publish', async () => {
    const list = await t.api(key).get(`/v1/project/versions/${GIT_PROJECT}`).expect(200);
    const versions = (list.body as { versions: Array<{ version: string; active: boolean }> }).versions;
    expect(versions.find((v) => v.active)?.version).toBe(versionsAt.at(-1));
    expect(versions).toHaveLength(t.config.staticExport.keepVersions);
    const target = versionsAt[1]!; // "Release two is out", before the extra page
    const started = await t.api(key).post(`/v1/project/rollback/${GIT_PROJECT}`).send({ version: target }).expect(202);
    expect(await untilEnded(t, key, started.body.statusId)).toMatchObject({ status: 'success', kind: 'rollback', version: target, trigger: 'api' });
    await page(t, 'docs.git.internal', '/extra').expect(404);
    expect((await page(t, 'docs.git.internal').expect(200)).text).toContain('Release two is out');
    expect((await t.api(key).post(`/v1/project/rollback/${GIT_PROJECT}`).send({ version: 'no-such-version' }).expect(400)).body.error).toMatch(/no kept version/);
  });

  it('publishes two projects independently, each at its own host name', async () => {
    const started = await t.api(key).post(`/v1/project/update/${DIR_PROJECT}`).expect(202);
    expect((await untilEnded(t, key, started.body.statusId)).status).toBe('success');
    expect((await page(t, 'docs.dir.internal').expect(200)).text).toContain('The directory project');
    expect((await page(t, 'DOCS.GIT.internal:8080').expect(200)).text).toContain('Release two is out');
    // A host that names no project gets the 404 page: two sites, no default configured.
    expect((await page(t, 'unknown.example').expect(404)).text).toContain('No documentation here');
  });

  it('coalesces triggers that arrive while a publish waits into one follow-up', async () => {
    const a = service().publish(DIR_PROJECT, 'cli');
    const b = service().publish(DIR_PROJECT, 'cli');
    const c = service().publish(DIR_PROJECT, 'poll');
    expect(c.id).toBe(b.id);
    expect(a.id).not.toBe(b.id);
    await service().idle();
    expect(service().status(a.id)!.status).toBe('success');
    expect(service().status(b.id)!.status).toBe('success');
  });
});
