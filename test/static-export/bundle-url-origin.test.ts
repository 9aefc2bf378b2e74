import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { pollJob, startExport, type BundleBody } from './helpers.js';

/** No admin.publicUrl: bundleUrl is built from the request's Host (and X-Forwarded-Proto behind a trusted proxy). */
let t: TestAppliance;
let key: string;
let jobId: string;
beforeAll(async () => {
  t = createTestAppliance({ config: { renderer: { threads: 1 }, admin: { trustProxy: true } } });
  await t.start();
  key = t.createKey();
  jobId = (await startExport(t, key)).jobId;
  expect((await pollJob(t, key, jobId)).pop()!.status).toBe('completed');
}, 120_000);
afterAll(async () => {
  await t.close();
});

const bundle = (headers: Record<string, string>) => {
  const req = t.api(key).post(`/v1/static-export/jobs/${jobId}/bundle`);
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  return req;
};

describe('bundleUrl without admin.publicUrl', () => {
  it.each(['docs-admin.internal', 'docs-admin.internal:8443', '10.0.0.5:3000', '[::1]:3000', 'appliance_1:3000'])('is built on a well-formed Host (%s)', async (host) => {
    const b = (await bundle({ Host: host }).expect(200)).body as BundleBody;
    expect(b.bundleUrl.startsWith(`http://${host}/v1/static-export/jobs/${jobId}/bundle.tar.gz?expires=`)).toBe(true);
  });

  it.each(['evil.example"><x', 'a b', 'evil.example/path', 'evil.example?x', 'user@evil.example', 'evil.example:99999', 'evil.example:', '[zz]', `${'a'.repeat(300)}`])(
    'answers 400 and builds no link for the Host %j',
    async (host) => {
      const res = await bundle({ Host: host }).expect(400);
      expect(res.body).toEqual({ error: 'Invalid Host header: expected a host name or IP address with an optional port' });
    },
  );

  it('takes https from a trusted proxy, and refuses any other X-Forwarded-Proto', async () => {
    const b = (await bundle({ Host: 'docs-admin.internal', 'X-Forwarded-Proto': 'https' }).expect(200)).body as BundleBody;
    expect(b.bundleUrl.startsWith('https://docs-admin.internal/')).toBe(true);
    for (const proto of ['javascript', 'data', 'ftp']) {
      const res = await bundle({ Host: 'docs-admin.internal', 'X-Forwarded-Proto': proto }).expect(400);
      expect(res.body.error).toBe('Invalid X-Forwarded-Proto: must be http or https');
    }
  });

  it('an empty Host header is a 400 too', async () => {
    const res = await supertest(t.admin).post(`/v1/static-export/jobs/${jobId}/bundle`).set('Authorization', `Bearer ${key}`).set('Host', '').expect(400);
    expect(res.body.error).toMatch(/Invalid Host header/);
  });
});
