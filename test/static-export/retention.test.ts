import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../app/clock.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { linkPath, pollJob, startExport, type BundleBody } from './helpers.js';

let t: TestAppliance;
afterEach(async () => {
  await t.close();
});

const DAY = 24 * 3600 * 1000;

describe('retention of exports (cron)', () => {
  it('deletes the files of exports older than staticExport.retentionDays; the job stays completed and its bundle call answers 409 naming retention', async () => {
    const clock = manualClock(new Date());
    t = createTestAppliance({ clock, config: { renderer: { threads: 1 }, staticExport: { retentionDays: 2, linkTtlSeconds: 7 * 24 * 3600 } } });
    await t.start();
    const key = t.createKey();
    const cron = t.features.find((f) => f.name === 'static-export')?.cron?.find((c) => c.name === 'static-export-retention');
    expect(cron, 'retention is declared as a cron job of the feature').toBeDefined();

    const old = await startExport(t, key);
    await pollJob(t, key, old.jobId);
    const link = (await t.api(key).post(`/v1/static-export/jobs/${old.jobId}/bundle`).expect(200)).body as BundleBody;

    clock.advance(1.5 * DAY);
    const young = await startExport(t, key);
    await pollJob(t, key, young.jobId);

    clock.advance(0.5 * DAY + 1000);
    const result = (await cron!.run()) as { removed: number };
    expect(result.removed).toBe(1);

    expect(fs.existsSync(path.join(t.stateDir, 'exports', old.jobId))).toBe(false);
    expect(fs.existsSync(path.join(t.stateDir, 'exports', young.jobId, 'bundle.zip'))).toBe(true);
    expect((await t.api(key).get(`/v1/static-export/jobs/${old.jobId}`).expect(200)).body.status).toBe('completed');
    const conflict = await t.api(key).post(`/v1/static-export/jobs/${old.jobId}/bundle`).expect(409);
    expect(conflict.body.error).toMatch(/removed by the retention policy/);
    // A link signed before retention ran, still unexpired, finds nothing to serve.
    const gone = await t.api().get(linkPath(link.bundleUrl)).expect(404);
    expect(gone.body.error).toMatch(/retention/);
    // The younger export is untouched.
    await t.api(key).post(`/v1/static-export/jobs/${young.jobId}/bundle`).expect(200);
    // A second run finds nothing more to do.
    expect(((await cron!.run()) as { removed: number }).removed).toBe(0);
  });
});
