import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { binary, checkTarGzAgainstManifest, linkPath, pollJob, startExport, writeGeneratedDocs, type BundleBody } from './helpers.js';

/** Enough pages that the export is still rendering when the test stops it. */
const PAGES = 400;
let root: string;
let source: string;
let stateDir: string;
const open: TestAppliance[] = [];

const appliance = () => {
  const t = createTestAppliance({ stateDir, sourceDir: source, config: { renderer: { threads: 1 } } });
  open.push(t);
  return t;
};
const close = async (t: TestAppliance) => {
  open.splice(open.indexOf(t), 1);
  await t.close();
};

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'se-recovery-'));
  source = writeGeneratedDocs(path.join(root, 'docs'), PAGES);
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});
afterEach(async () => {
  for (const t of [...open]) await close(t);
  fs.rmSync(stateDir, { recursive: true, force: true });
});

async function expectCompleteBundle(t: TestAppliance, key: string, jobId: string) {
  const seen = await pollJob(t, key, jobId, { timeoutMs: 120_000 });
  expect(seen.pop()).toMatchObject({ status: 'completed', progress: 100, pageCount: PAGES });
  expect(fs.readdirSync(path.join(stateDir, 'exports', jobId))).toEqual(['bundle.tar.gz', 'bundle.zip']);
  const bundle = (await t.api(key).post(`/v1/static-export/jobs/${jobId}/bundle`).expect(200)).body as BundleBody;
  const tgz = (await t.api().get(linkPath(bundle.bundleUrl)).buffer(true).parse(binary).expect(200)).body as Buffer;
  const { manifest } = await checkTarGzAgainstManifest(tgz);
  expect(manifest.pageCount).toBe(PAGES);
  expect(manifest.jobId).toBe(jobId);
}

vi.setConfig({ testTimeout: 180_000 });

describe('static export: a job interrupted by a stop of the process', () => {
  it('stopped gracefully mid-run: goes back to the queue and runs again from the beginning on the next start', async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-state-'));
    const first = appliance();
    await first.start();
    const key = first.createKey();
    const job = await startExport(first, key);
    const running = (await pollJob(first, key, job.jobId, { until: (j) => j.status === 'running' && j.pageCount > 0, intervalMs: 5 })).pop()!;
    expect(running.progress).toBeGreaterThan(0);
    expect(running.progress).toBeLessThan(100);
    await close(first);

    const second = appliance();
    // Before the queue starts: the job is waiting, its partial files are gone, its progress kept.
    const waiting = (await second.api(key).get(`/v1/static-export/jobs/${job.jobId}`).expect(200)).body;
    expect(waiting.status).toBe('queued');
    expect(waiting.progress).toBeGreaterThanOrEqual(running.progress);
    expect(fs.existsSync(path.join(stateDir, 'exports', job.jobId))).toBe(false);
    expect(second.ctx.stores.exportJobs.get(job.jobId)!.attempts).toBe(0);
    await second.start();
    await expectCompleteBundle(second, key, job.jobId);
  });

  it('killed (SIGKILL) mid-run: found running at start-up, its partial files are deleted and it runs again to completion', async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-state-'));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'crash-child.ts'), stateDir, source], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const jobId = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /RUNNING (se_[0-9a-f]{16})/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`child exited (${code}) before the export ran: ${stderr}`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const t = appliance();
    const key = t.createKey();
    const left = t.ctx.stores.exportJobs.get(jobId)!;
    expect(left.status).toBe('running');
    expect(left.attempts).toBe(1);
    await t.start();
    expect(t.logs.join('')).toContain('export was interrupted by a stop of the process; queued to run again from the beginning');
    await expectCompleteBundle(t, key, jobId);
    expect(t.ctx.stores.exportJobs.get(jobId)!.attempts).toBe(2);
  });

  it('interrupted too many times: fails with a reason instead of running again', async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-state-'));
    const t = appliance();
    const key = t.createKey();
    const job = await startExport(t, key);
    // What three crashes in a row leave behind: the row running, its third attempt counted.
    t.ctx.db.prepare("UPDATE export_jobs SET status = 'running', attempts = 3 WHERE id = ?").run(job.jobId);
    fs.mkdirSync(path.join(stateDir, 'exports', job.jobId), { recursive: true });
    fs.writeFileSync(path.join(stateDir, 'exports', job.jobId, 'bundle.zip.partial'), 'partial');
    await t.start();
    const failed = (await t.api(key).get(`/v1/static-export/jobs/${job.jobId}`).expect(200)).body;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/interrupted 3 times/);
    expect(fs.existsSync(path.join(stateDir, 'exports', job.jobId))).toBe(false);
  });
});
