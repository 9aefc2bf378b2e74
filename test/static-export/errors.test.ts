import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestAppliance, FREE_ORG, OTHER_ORG, type TestAppliance } from '../helpers/appliance.js';
import { pollJob, startExport } from './helpers.js';

let t: TestAppliance;
let key: string;
beforeEach(() => {
  t = createTestAppliance({ config: { renderer: { threads: 1 } } });
  key = t.createKey();
});
afterEach(async () => {
  // Most of these tests never start the feature, but checking `paths` starts its export thread.
  await t.features.find((f) => f.name === 'static-export')?.stop?.();
  await t.close();
});

const post = (body: unknown) => t.api(key).post('/v1/static-export/jobs').send(body as object);

describe('POST /v1/static-export/jobs: bad requests', () => {
  it.each([
    ['https://docs.test.internal', /without a scheme/],
    ['docs.test.internal/', /without a slash or path/],
    ['docs.test.internal/guides', /without a slash or path/],
    ['docs.test.internal:8443', /without a port/],
    ['docs test.internal', /without spaces/],
    ['', /must not be empty/],
    ['-bad-.internal', /bare hostname such as/],
  ])('answers 400 for the domain %j', async (domain, message) => {
    const res = await post({ domain }).expect(400);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(res.body.error).toMatch(/domain/);
    expect(res.body.error).toMatch(message);
  });

  it('answers 400 for a domain no project of the organization has, including another organization’s domain', async () => {
    for (const domain of ['unknown.internal', 'docs.other.internal']) {
      const res = await post({ domain }).expect(400);
      expect(res.body.error).toBe(`Invalid body: domain: no project of your organization has the domain "${domain}"`);
    }
  });

  it.each([
    [{ domain: 'docs.test.internal', paths: 'guides' }, /paths/],
    [{ domain: 'docs.test.internal', paths: [] }, /paths: must list at least one/],
    [{ domain: 'docs.test.internal', paths: [''] }, /paths\.0: must not be empty/],
    [{ domain: 'docs.test.internal', paths: ['../etc/passwd'] }, /paths\.0: .*"\.\." segments/],
    [{ domain: 'docs.test.internal', paths: ['https://x.example/a'] }, /paths\.0: .*not a URL/],
    [{ domain: 'docs.test.internal', paths: [42] }, /paths\.0/],
    [{ domain: 'docs.test.internal', paths: ['guides/intro', 'no/such/page'] }, /paths match no page: no\/such\/page/],
    [{ domain: 'docs.test.internal', version: '' }, /version: must not be empty/],
    [{ domain: 'docs.test.internal', version: 'has space' }, /version: must be printable ASCII/],
    [{}, /domain: is required/],
    [{ domain: 42 }, /domain/],
  ])('answers 400 naming the field for %j', async (body, message) => {
    const res = await post(body).expect(400);
    expect(res.body.error).toMatch(message);
  });

  it('ignores fields the published schema does not name (202), and logs their names', async () => {
    const res = await post({ domain: 'docs.test.internal', path: ['guides'], format: 'tar', nested: { deep: true } }).expect(202);
    expect(res.body.status).toBe('queued');
    const line = t.logs.find((l) => l.includes('unknown body fields ignored'));
    expect(JSON.parse(line!).ignored).toEqual(['path', 'format', 'nested']);
    // The whole site: `path` is not `paths`.
    expect(t.ctx.stores.exportJobs.get(res.body.jobId)!.paths ?? null).toBeNull();
  });

  it('answers 400 for a body that is not a JSON object, 415 for one that is not JSON, 400 for malformed JSON', async () => {
    for (const body of [['docs.test.internal'], 'docs.test.internal', 7, null]) {
      const res = await t.api(key).post('/v1/static-export/jobs').set('Content-Type', 'application/json').send(JSON.stringify(body)).expect(400);
      expect(res.body.error).toMatch(/body must be a JSON object/);
    }
    const none = await t.api(key).post('/v1/static-export/jobs').expect(400);
    expect(none.body.error).toMatch(/body must be a JSON object/);
    await t.api(key).post('/v1/static-export/jobs').set('Content-Type', 'text/plain').send('domain=docs.test.internal').expect(415);
    const malformed = await t.api(key).post('/v1/static-export/jobs').set('Content-Type', 'application/json').send('{"domain": ').expect(400);
    expect(malformed.body.error).toMatch(/Malformed JSON/);
  });

  it('creates no job for a rejected request', async () => {
    await post({ domain: 'https://docs.test.internal' }).expect(400);
    expect(t.ctx.db.prepare('SELECT COUNT(*) AS n FROM export_jobs').get()).toEqual({ n: 0 });
  });
});

describe('static export: authentication, plan, ownership, state', () => {
  it('answers 401 with WWW-Authenticate without a valid key, on every operation', async () => {
    for (const k of [undefined, 'mint_notarealkeynotarealkeynotarealkey00']) {
      const api = t.api(k);
      for (const res of [
        await api.post('/v1/static-export/jobs').send({ domain: 'docs.test.internal' }),
        await api.get('/v1/static-export/jobs/se_0123456789abcdef'),
        await api.post('/v1/static-export/jobs/se_0123456789abcdef/bundle'),
      ]) {
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(Object.keys(res.body)).toEqual(['error']);
      }
    }
  });

  it('answers 403 when the organization is not on the enterprise plan, before looking at the body', async () => {
    const free = t.createKey(FREE_ORG);
    for (const body of [{ domain: 'docs.free.internal' }, { domain: 'https://nonsense' }]) {
      const res = await t.api(free).post('/v1/static-export/jobs').send(body).expect(403);
      expect(res.body).toEqual({ error: 'Static export requires the enterprise plan' });
    }
    await t.api(free).get('/v1/static-export/jobs/se_0123456789abcdef').expect(403);
  });

  it('answers 403 for a key without the write scope', async () => {
    const readOnly = t.createKey(undefined, { scopes: ['read'] });
    await t.api(readOnly).post('/v1/static-export/jobs').send({ domain: 'docs.test.internal' }).expect(403);
  });

  it('answers 404 for an unknown job and for another organization’s job, on GET and bundle alike', async () => {
    await t.start();
    const job = await startExport(t, key);
    await pollJob(t, key, job.jobId);
    const other = t.createKey(OTHER_ORG);
    for (const id of [job.jobId, 'se_0000000000000000', 'not-a-job-id']) {
      expect((await t.api(other).get(`/v1/static-export/jobs/${id}`).expect(404)).body).toEqual({ error: 'Job not found' });
      expect((await t.api(other).post(`/v1/static-export/jobs/${id}/bundle`).expect(404)).body).toEqual({ error: 'Job not found' });
    }
    // The owner still sees it.
    await t.api(key).get(`/v1/static-export/jobs/${job.jobId}`).expect(200);
  });

  it('answers 409 for the bundle of a job that is not completed', async () => {
    // Not started: the job stays queued.
    const job = await startExport(t, key);
    const res = await t.api(key).post(`/v1/static-export/jobs/${job.jobId}/bundle`).expect(409);
    expect(res.body).toEqual({ error: `Job ${job.jobId} has no bundle: it is queued; a bundle exists once status is completed` });
  });
});
