import supertest from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';

let t: TestAppliance;
beforeEach(() => {
  t = createTestAppliance();
});
afterEach(async () => {
  await t.close();
});

describe('operations endpoints', () => {
  it('/healthz answers without a key', async () => {
    const res = await t.api().get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('/readyz reports the database and goes 503 once shutdown begins', async () => {
    const ok = await t.api().get('/readyz');
    expect(ok.status).toBe(200);
    expect(ok.body.checks.database).toEqual({ ok: true, critical: true });
    t.ctx.lifecycle.shuttingDown = true;
    const stopping = await t.api().get('/readyz');
    expect(stopping.status).toBe(503);
    expect(stopping.body).toMatchObject({ status: 'not ready', reason: 'shutting down' });
  });

  it('/readyz goes 503 when the database is gone', async () => {
    t.ctx.db.close();
    const res = await supertest(t.admin).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.checks.database).toMatchObject({ ok: false, detail: expect.stringMatching(/database unavailable/) });
    // close() would close it again: reopen a throwaway handle so teardown stays simple
    (t.ctx as { db: unknown }).db = { close() {} };
  });

  it('/metrics exposes Prometheus counters of the requests served', async () => {
    await t.api().get('/healthz');
    const res = await t.api().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toMatch(/docs_appliance_http_requests_total\{listener="admin",method="GET",route="\/healthz",status="200"\} 1/);
    expect(res.text).toContain('docs_appliance_http_request_duration_seconds_bucket');
  });

  it('/openapi.json serves an OpenAPI 3.1 description of the admin API', async () => {
    const res = await t.api().get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/v2/agent/{projectId}/job/{id}'].get.responses['404']).toBeDefined();
    expect(res.body.components.securitySchemes.adminKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('the site listener answers 503 with a plain page until a site is loaded', async () => {
    const res = await supertest(t.site).get('/guides/intro');
    expect([200, 404, 503]).toContain(res.status);
    if (res.status === 503) expect(res.headers['content-type']).toMatch(/text\/(plain|html)/);
  });
});
