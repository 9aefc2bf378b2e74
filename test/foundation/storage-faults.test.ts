import { Router } from 'express';
import supertest from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAdminApp } from '../../app/admin-app.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { checkAgainstSpec } from '../helpers/openapi.js';

let t: TestAppliance;
let key: string;
beforeEach(() => {
  // Room for the hundreds of queued exports that fill the database below.
  t = createTestAppliance({ config: { staticExport: { maxQueuedJobsPerOrg: 1000, maxQueuedJobs: 1000 } } });
  key = t.createKey();
});
afterEach(async () => {
  await t.close();
});

const countJobs = (): number => (t.ctx.db.prepare('SELECT count(*) AS n FROM export_jobs').get() as { n: number }).n;

describe('storage faults', () => {
  it('answers a full database with 503 STORAGE_FULL, keeps what was saved and saves nothing half-way', async () => {
    // SQLite's own limit on the file's size: past it, every write fails with SQLITE_FULL exactly
    // as on a full disk, without needing one.
    const pages = t.ctx.db.pragma('page_count', { simple: true }) as number;
    t.ctx.db.pragma(`max_page_count = ${pages}`);

    const accepted: string[] = [];
    let refused: supertest.Response | undefined;
    for (let i = 0; i < 500 && !refused; i++) {
      const res = await t.api(key).post('/v1/static-export/jobs').send({ domain: 'docs.test.internal' });
      if (res.status === 202) accepted.push((res.body as { jobId: string }).jobId);
      else refused = res;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body).toEqual({ error: "The appliance's storage is full; nothing was saved. Free space in its state directory, then retry" });
    expect(refused?.headers['retry-after']).toBe('60');
    expect(t.logs.some((l) => l.includes('"code":"STORAGE_FULL"'))).toBe(true);

    // Everything answered 202 before is there; the refused request left no row behind.
    expect(countJobs()).toBe(accepted.length);
    for (const jobId of accepted) await t.api(key).get(`/v1/static-export/jobs/${jobId}`).expect(200);

    // Space again: the same request goes through.
    t.ctx.db.pragma('max_page_count = 1073741823');
    await t.api(key).post('/v1/static-export/jobs').send({ domain: 'docs.test.internal' }).expect(202);
    expect(countJobs()).toBe(accepted.length + 1);
  });

  it('maps a full disk, a read-only state directory and a busy database to coded 503s with Retry-After', async () => {
    const faults: Record<string, string> = { ENOSPC: 'full', EDQUOT: 'quota', EROFS: 'ro', SQLITE_READONLY_DBMOVED: 'moved', SQLITE_BUSY: 'busy', SQLITE_LOCKED: 'locked' };
    const router = Router();
    for (const [code, name] of Object.entries(faults)) {
      router.get(`/v2/fault/${name}`, () => {
        throw Object.assign(new Error(`${code}: simulated`), { code });
      });
    }
    router.get('/v1/analytics/fault', () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    });
    const app = buildAdminApp(t.ctx, [{ name: 'faults', adminRouter: router }]);
    const get = (url: string) => supertest(app).get(url).set('Authorization', `Bearer ${key}`);

    for (const name of ['full', 'quota']) {
      const res = await get(`/v2/fault/${name}`);
      expect([res.status, res.headers['retry-after'], res.body.error]).toEqual([503, '60', expect.stringMatching(/^The appliance's storage is full/)]);
    }
    for (const name of ['ro', 'moved']) {
      const res = await get(`/v2/fault/${name}`);
      expect([res.status, res.headers['retry-after'], res.body.error]).toEqual([503, '60', expect.stringMatching(/^The appliance's state directory is read-only/)]);
    }
    for (const name of ['busy', 'locked']) {
      const res = await get(`/v2/fault/${name}`);
      expect([res.status, res.headers['retry-after'], res.body]).toEqual([503, '1', { error: 'The database is busy; nothing was saved. Retry shortly' }]);
    }
    // Analytics routes keep their {error, details} family.
    const analytics = await get('/v1/analytics/fault');
    expect(analytics.status).toBe(503);
    expect(analytics.body).toEqual({ error: expect.stringMatching(/storage is full/), details: [] });
    // Any other code is still a bug: a generic 500.
    router.get('/v2/fault/other', () => {
      throw Object.assign(new Error('EACCES: simulated'), { code: 'EACCES' });
    });
    expect((await get('/v2/fault/other')).status).toBe(500);
  });

  it('describes the 503 in the OpenAPI document for every authenticated operation', () => {
    const body = { error: "The appliance's storage is full; nothing was saved. Free space in its state directory, then retry" };
    const headers = { 'x-request-id': '00000000-0000-4000-8000-000000000000', 'retry-after': '60' };
    for (const [method, path] of [
      ['post', '/v1/static-export/jobs'],
      ['get', '/v1/static-export/jobs/ej_x'],
      ['post', '/v2/agent/aaaaaaaaaaaaaaaaaaaaaaaa/job'],
    ] as const) {
      expect(() => checkAgainstSpec({ method, path, status: 503, headers, body, contentType: 'application/json' })).not.toThrow();
    }
    expect(() =>
      checkAgainstSpec({ method: 'get', path: '/v1/analytics/aaaaaaaaaaaaaaaaaaaaaaaa/searches', status: 503, headers, body: { ...body, details: [] }, contentType: 'application/json' }),
    ).not.toThrow();
  });
});
