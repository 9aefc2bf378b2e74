import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import JSZip from 'jszip';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, TEST_ORG, TEST_PROJECT, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { siteCsp } from '../../app/site/site-csp.js';
import { binary, checkBundleAgainstManifest, checkTarGzAgainstManifest, linkPath, pollJob, startExport, type BundleBody } from './helpers.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('static export: the whole flow through HTTP', () => {
  it('starts a job (202 queued), polls it to completed, signs a link, downloads a tar.gz (by default) and a zip that both match the manifest', async () => {
    t = createTestAppliance({ config: { renderer: { threads: 1 } } });
    await t.start();
    const key = t.createKey();

    const started = await startExport(t, key);
    expect(started.jobId).toMatch(/^se_[0-9a-f]{16}$/);
    expect(started).toMatchObject({ status: 'queued', progress: 0, pageCount: 0, domain: 'docs.test.internal' });
    expect(started.createdAt).toBe(started.updatedAt);
    expect(started.error).toBeUndefined();

    const seen = await pollJob(t, key, started.jobId);
    const done = seen[seen.length - 1]!;
    expect(done).toMatchObject({ status: 'completed', progress: 100, pageCount: 2 });
    // Not a git repository: the version is the job id.
    expect(done.version).toBe(started.jobId);

    // The default (no body, as the published operation sends it): the tar.gz, through a real `tar xz`.
    const tgz = (await t.api(key).post(`/v1/static-export/jobs/${started.jobId}/bundle`).expect(200)).body as BundleBody;
    expect(tgz).toMatchObject({ jobId: started.jobId, format: 'tar.gz' });
    expect(tgz.bundleUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v1/static-export/jobs/${started.jobId}/bundle\\.tar\\.gz\\?expires=\\d+&kid=[0-9a-f]+&signature=[A-Za-z0-9_-]+$`));
    expect(fs.statSync(path.join(t.stateDir, 'exports', started.jobId, 'bundle.tar.gz')).size).toBe(tgz.sizeBytes);
    const tgzRes = await t.api().get(linkPath(tgz.bundleUrl)).buffer(true).parse(binary).expect(200);
    expect(tgzRes.headers['content-type']).toBe('application/gzip');
    expect(tgzRes.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="?docs\\.test\\.internal-${started.jobId}\\.tar\\.gz"?$`));
    expect((tgzRes.body as Buffer).length).toBe(tgz.sizeBytes);
    const fromTar = await checkTarGzAgainstManifest(tgzRes.body as Buffer);

    const bundle = (await t.api(key).post(`/v1/static-export/jobs/${started.jobId}/bundle`).send({ format: 'zip' }).expect(200)).body as BundleBody;
    expect(bundle).toMatchObject({ jobId: started.jobId, format: 'zip' });
    expect(bundle.bundleUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v1/static-export/jobs/${started.jobId}/bundle\\.zip\\?expires=\\d+&kid=[0-9a-f]+&signature=[A-Za-z0-9_-]+$`));
    expect(new Date(bundle.expiresAt).getTime() - t.clock.now().getTime()).toBeGreaterThan(3599_000);
    expect(new Date(bundle.expiresAt).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(3600_000);
    expect(fs.statSync(path.join(t.stateDir, 'exports', started.jobId, 'bundle.zip')).size).toBe(bundle.sizeBytes);

    // No Authorization header: the signature is the credential.
    const res = await t.api().get(linkPath(bundle.bundleUrl)).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="?docs\\.test\\.internal-${started.jobId}\\.zip"?$`));
    expect(Number(res.headers['content-length'])).toBe(bundle.sizeBytes);
    const zipBytes = res.body as Buffer;
    expect(zipBytes.length).toBe(bundle.sizeBytes);

    const { manifest, names } = await checkBundleAgainstManifest(zipBytes);
    expect(manifest).toMatchObject({ format: 1, jobId: started.jobId, projectId: TEST_PROJECT, domain: 'docs.test.internal', version: started.jobId, pageCount: 2 });
    expect(manifest.createdAt).toBe(started.createdAt);
    expect(names).toEqual(expect.arrayContaining(['index.html', 'guides/intro/index.html']));
    // The same files and the same manifest in both formats.
    expect(fromTar.manifest).toEqual(manifest);
    expect(fromTar.names).toEqual(names);
  });

  it("writes the policy the site listener sends for the project into every page: the operator's policy plus its playground origins, minus header-only directives", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-export-csp-'));
    const sourceDir = writeTinyDocs(path.join(dir, 'source'));
    t = createTestAppliance({
      stateDir: dir,
      sourceDir,
      config: {
        renderer: { threads: 1 },
        site: { contentSecurityPolicy: "default-src 'self'; connect-src 'self'; frame-ancestors 'none'; report-uri /csp" },
        projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: 'docs.test.internal', sourceDir, playground: { baseUrl: 'https://api.acme.test/v1' } }],
      },
    });
    await t.start();
    const key = t.createKey();
    const started = await startExport(t, key);
    const done = (await pollJob(t, key, started.jobId)).at(-1)!;
    expect(done.status).toBe('completed');
    const zip = await JSZip.loadAsync(fs.readFileSync(path.join(t.stateDir, 'exports', started.jobId, 'bundle.zip')));
    const page = await zip.file('guides/intro/index.html')!.async('string');
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;; connect-src &#39;self&#39; https://api.acme.test">`);
    // The same builder makes the header (app/site/site-csp.ts), which keeps frame-ancestors and report-uri.
    expect(siteCsp(t.ctx.config, TEST_PROJECT)).toBe("default-src 'self'; connect-src 'self' https://api.acme.test; frame-ancestors 'none'; report-uri /csp");
  });

  it('labels the export with the source’s git commit when the docs folder is a git repository, and with the requested version when given', async () => {
    const parent = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'se-git-'));
    const source = writeTinyDocs(path.join(parent, 'docs'));
    const git = (...args: string[]) => execFileSync('git', ['-C', source, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'docs');
    const commit = git('rev-parse', 'HEAD').trim();
    try {
      t = createTestAppliance({ sourceDir: source, config: { renderer: { threads: 1 } } });
      await t.start();
      const key = t.createKey();

      const byCommit = await startExport(t, key);
      const done = (await pollJob(t, key, byCommit.jobId)).pop()!;
      expect(done.status).toBe('completed');
      expect(done.version).toBe(commit);

      const pinned = await startExport(t, key, { domain: 'DOCS.test.internal', version: 'v2.4.0' });
      expect((await pollJob(t, key, pinned.jobId)).pop()).toMatchObject({ status: 'completed', version: 'v2.4.0' });
      const bundle = (await t.api(key).post(`/v1/static-export/jobs/${pinned.jobId}/bundle`).send({ format: 'zip' }).expect(200)).body as BundleBody;
      const zip = (await t.api().get(linkPath(bundle.bundleUrl)).buffer(true).parse(binary).expect(200)).body as Buffer;
      const { manifest } = await checkBundleAgainstManifest(zip);
      expect(manifest.version).toBe('v2.4.0');
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('exports only the requested paths', async () => {
    // This one starts (and on close stops) an export thread of its own, as `serve` does; the
    // other tests share the fork's warm one (test/helpers/export-runner.ts).
    t = createTestAppliance({ config: { renderer: { threads: 1 } }, exportThread: 'own' });
    await t.start();
    const key = t.createKey();
    const job = await startExport(t, key, { domain: 'docs.test.internal', paths: ['guides/intro'] });
    expect((await pollJob(t, key, job.jobId)).pop()).toMatchObject({ status: 'completed', pageCount: 1 });
    const bundle = (await t.api(key).post(`/v1/static-export/jobs/${job.jobId}/bundle`).send({ format: 'zip' }).expect(200)).body as BundleBody;
    const zip = (await t.api().get(linkPath(bundle.bundleUrl)).buffer(true).parse(binary).expect(200)).body as Buffer;
    const { manifest, names, zip: unzipped } = await checkBundleAgainstManifest(zip);
    expect(manifest.pageCount).toBe(1);
    expect(names).toContain('guides/intro/index.html');
    // The home page was not rendered (the renderer may still put a redirect at the root).
    const root = await unzipped.file('index.html')?.async('string');
    expect(root ?? '').not.toContain('Welcome to the tiny docs');
  });

  it('fails a job whose pages cannot render, with an error naming the first failing files', async () => {
    const parent = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'se-broken-'));
    const source = writeTinyDocs(path.join(parent, 'docs'));
    fs.writeFileSync(path.join(source, 'guides', 'intro.mdx'), '<Note>\nnever closed\n\nbody\n');
    try {
      t = createTestAppliance({ sourceDir: source, config: { renderer: { threads: 1 } } });
      await t.start();
      const key = t.createKey();
      const job = await startExport(t, key);
      const failed = (await pollJob(t, key, job.jobId)).pop()!;
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/guides\/intro\.mdx:1: /);
      expect(fs.existsSync(path.join(t.stateDir, 'exports', job.jobId))).toBe(false);
      const conflict = await t.api(key).post(`/v1/static-export/jobs/${job.jobId}/bundle`).expect(409);
      expect(conflict.body.error).toMatch(/failed/);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('runs no more jobs at a time than staticExport.concurrency; the rest wait as queued', async () => {
    t = createTestAppliance({ config: { renderer: { threads: 1 }, staticExport: { concurrency: 1 } } });
    await t.start();
    const key = t.createKey();
    const jobs = [await startExport(t, key), await startExport(t, key), await startExport(t, key)];
    let maxRunning = 0;
    for (;;) {
      const states = await Promise.all(jobs.map(async (j) => ((await t!.api(key).get(`/v1/static-export/jobs/${j.jobId}`).expect(200)).body as { status: string }).status));
      maxRunning = Math.max(maxRunning, states.filter((s) => s === 'running').length);
      if (states.every((s) => s === 'completed')) break;
      expect(states.every((s) => s !== 'failed')).toBe(true);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(maxRunning).toBe(1);
  });

  it('applies a new staticExport.concurrency on reload (SIGHUP)', async () => {
    t = createTestAppliance({ config: { renderer: { threads: 1 }, staticExport: { concurrency: 1 } } });
    await t.start();
    const key = t.createKey();
    await t.features.find((f) => f.name === 'static-export')!.reload!({ ...t.config, staticExport: { ...t.config.staticExport, concurrency: 2 } });
    const a = await startExport(t, key);
    const b = await startExport(t, key);
    // Both were claimed at once: neither waits for the other.
    const statuses = t.ctx.db.prepare('SELECT status FROM export_jobs WHERE id IN (?, ?)').all(a.jobId, b.jobId) as { status: string }[];
    expect(statuses.map((r) => r.status)).toEqual(['running', 'running']);
    for (const j of [a, b]) expect((await pollJob(t, key, j.jobId)).pop()!.status).toBe('completed');
  });
});
