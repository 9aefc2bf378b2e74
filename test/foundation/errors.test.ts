import { Router } from 'express';
import supertest from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAdminApp } from '../../app/admin-app.js';
import { createTestAppliance, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';

let t: TestAppliance;
let key: string;
beforeEach(() => {
  t = createTestAppliance({ config: { admin: { maxBodyBytes: 1024 } } });
  key = t.createKey();
});
afterEach(async () => {
  await t.close();
});

const jobUrl = `/v2/agent/${TEST_PROJECT}/job/aj_x`;

describe('the error contract', () => {
  it('answers malformed JSON with 400 {error}', async () => {
    const res = await supertest(t.admin).post(jobUrl).set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/json').send('{"prompt": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringMatching(/^Malformed JSON body/) });
  });

  it('answers a body over the limit with 413 and a non-JSON body with 415', async () => {
    const big = await supertest(t.admin).post(jobUrl).set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/json').send(JSON.stringify({ prompt: 'x'.repeat(2000) }));
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'Request body exceeds 1024 bytes' });
    const form = await supertest(t.admin).post(jobUrl).set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/x-www-form-urlencoded').send('prompt=x');
    expect(form.status).toBe(415);
    expect(form.body).toEqual({ error: 'Content-Type must be application/json (got application/x-www-form-urlencoded)' });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await supertest(t.admin).get('/v2/nothing/here').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'No route for GET /v2/nothing/here' });
    const outside = await supertest(t.admin).get('/favicon.ico');
    expect(outside.status).toBe(404);
    expect(outside.headers['content-type']).toMatch(/application\/json/);
  });

  it('uses the {error, details} family under /v1/analytics, for auth errors too', async () => {
    const unauth = await supertest(t.admin).get(`/v1/analytics/${TEST_PROJECT}/nothing`);
    expect(unauth.status).toBe(401);
    expect(unauth.body).toEqual({ error: expect.any(String), details: [] });
    const notFound = await supertest(t.admin).get(`/v1/analytics/${TEST_PROJECT}/nothing`).set('Authorization', `Bearer ${key}`);
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ error: `No route for GET /v1/analytics/${TEST_PROJECT}/nothing`, details: [] });
  });

  it('answers a path that is not valid percent-encoding with 400 in the error shape of its family, not a 500', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    for (const url of ['/v1/static-export/jobs/%E0%A4%A', `/v2/agent/${TEST_PROJECT}/job/%zz`, `/v1/agent/%zz/jobs`, '/v1/static-export/jobs/%E0%A4%A/bundle.tar.gz']) {
      const res = await supertest(t.admin).get(url).set(auth);
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ error: 'Malformed percent-encoding in the request path' });
    }
    const analytics = await supertest(t.admin).get('/v1/analytics/%zz/searches').set(auth).expect(400);
    expect(analytics.body).toEqual({ error: 'Malformed percent-encoding in the request path', details: [] });
    expect(t.logs.join('')).not.toContain('unexpected error');
  });

  it('hides an unexpected fault behind a generic 500 and logs the detail with the request id', async () => {
    const boom = Router();
    boom.get('/v2/boom', () => {
      throw new Error('secret internal detail: disk on fire');
    });
    const app = buildAdminApp(t.ctx, [{ name: 'boom', adminRouter: boom }]);
    const res = await supertest(app).get('/v2/boom').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error' });
    expect(JSON.stringify(res.body)).not.toContain('disk on fire');
    const line = t.logs.find((l) => l.includes('disk on fire'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!).reqId).toBe(res.headers['x-request-id']);
  });

  it('sends a JSON-only CSP and no HSTS from the admin API (it speaks plain HTTP; HSTS would pin every port of the host)', async () => {
    for (const res of [await supertest(t.admin).get('/healthz'), await supertest(t.admin).get(jobUrl).set('Authorization', `Bearer ${key}`)]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('puts X-Request-Id on every response and reuses a sane incoming one', async () => {
    for (const res of [await supertest(t.admin).get('/healthz'), await supertest(t.admin).get(jobUrl), await supertest(t.admin).get('/nope'), await supertest(t.site).get('/')]) {
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const res = await supertest(t.admin).get('/healthz').set('X-Request-Id', 'trace-123');
    expect(res.headers['x-request-id']).toBe('trace-123');
    const hostile = await supertest(t.admin).get('/healthz').set('X-Request-Id', 'a b;c');
    expect(hostile.headers['x-request-id']).not.toBe('a b;c');
  });

  it('never writes a key into the log', async () => {
    await t.api(key).get(jobUrl);
    await supertest(t.admin).get(jobUrl).set('Authorization', `Bearer ${key}x`);
    expect(t.logs.length).toBeGreaterThan(1);
    expect(t.logs.join('\n')).not.toContain(key);
    expect(t.logs.join('\n')).not.toContain(t.initialKey);
  });
});
