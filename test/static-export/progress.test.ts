import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 180_000 });
import { createProgressTracker, throttle } from '../../app/static-export/progress.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { pollJob, sleep, startExport, writeGeneratedDocs } from './helpers.js';

describe('progress through HTTP', () => {
  let root: string;
  let t: TestAppliance | undefined;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'se-progress-'));
    writeGeneratedDocs(path.join(root, 'docs'), 300);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  afterEach(async () => {
    await t?.close();
  });

  it('reports live progress and pageCount while running, never going backwards, then 100 and every page', async () => {
    t = createTestAppliance({ sourceDir: path.join(root, 'docs'), config: { renderer: { threads: 1 } } });
    await t.start();
    const key = t.createKey();
    const job = await startExport(t, key);
    const seen = await pollJob(t, key, job.jobId, { intervalMs: 5, timeoutMs: 120_000 });
    const last = seen[seen.length - 1]!;
    expect(last).toMatchObject({ status: 'completed', progress: 100, pageCount: 300 });
    const running = seen.filter((j) => j.status === 'running');
    const midway = running.filter((j) => j.progress > 2 && j.progress < 90 && j.pageCount > 0 && j.pageCount < 300);
    expect(midway.length, 'observations while pages were rendering').toBeGreaterThan(0);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.progress, `observation ${i}`).toBeGreaterThanOrEqual(seen[i - 1]!.progress);
      expect(seen[i]!.pageCount, `observation ${i}`).toBeGreaterThanOrEqual(seen[i - 1]!.pageCount);
    }
    for (const j of running) {
      expect(j.progress).toBeLessThan(100);
      expect(j.pageCount).toBeLessThanOrEqual(300);
    }
  });
});

describe('progress mapping and write throttling', () => {
  it('maps stages onto 0–100 and never goes down, whatever order reports arrive in', () => {
    const p = createProgressTracker();
    expect(p.update({ stage: 'load', pagesDone: 0, pagesPlanned: 0 })).toEqual({ progress: 0, pageCount: 0 });
    expect(p.update({ stage: 'render', pagesDone: 50, pagesPlanned: 100 }).progress).toBe(46);
    expect(p.update({ stage: 'render', pagesDone: 10, pagesPlanned: 100 })).toEqual({ progress: 46, pageCount: 50 });
    expect(p.update({ stage: 'render', pagesDone: 100, pagesPlanned: 100 }).progress).toBe(90);
    expect(p.update({ stage: 'pack', pagesDone: 100, pagesPlanned: 100 }).progress).toBe(95);
    expect(p.update({ stage: 'plan', pagesDone: 0, pagesPlanned: 0 })).toEqual({ progress: 95, pageCount: 100 });
    expect(p.update({ stage: 'done', pagesDone: 100, pagesPlanned: 100 }).progress).toBeLessThan(100);
  });

  it('writes at most once per interval and flushes the latest value after a quiet spell', async () => {
    const writes: number[] = [];
    const th = throttle<number>(50, (v) => writes.push(v));
    for (let i = 1; i <= 100; i++) th.push(i);
    expect(writes).toEqual([1]);
    await sleep(80);
    expect(writes).toEqual([1, 100]);
    th.push(101);
    th.cancel();
    await sleep(80);
    expect(writes).toEqual([1, 100]);
  });
});
