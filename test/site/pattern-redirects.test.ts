import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../renderer/index.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { fastLoader, siteFeature } from './helpers.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

/** A bundle made by the real exporter, served by the real site listener. */
describe('pattern redirects through the site listener', () => {
  let t: TestAppliance;

  beforeAll(async () => {
    const sourceDir = tempSite({
      'docs.json': JSON.stringify({
        name: 'Acme',
        navigation: { groups: [{ group: 'Docs', pages: ['index', 'v2/intro', 'v2/deep/page', 'beta/kept'] }] },
        redirects: [
          { source: '/old', destination: '/v2/intro' },
          { source: '/beta/:slug*', destination: '/v2/:slug*' },
          { source: '/tmp/:slug*', destination: '/v2/:slug*', permanent: false },
          { source: '/users/:id/profile', destination: '/people/:id' },
          { source: '/articles/concepts-*', destination: '/v2/intro' },
          { source: '/ext/:path*', destination: 'https://elsewhere.example/docs/:path*' },
        ],
      }),
      'index.mdx': '# Home',
      'v2/intro.mdx': '# Intro',
      'v2/deep/page.mdx': '# Deep',
      'beta/kept.mdx': '# A real page under a redirected prefix',
    });
    const zip = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-redirects-')), 'bundle.zip');
    const pool = sharedRenderPool(1);
    try {
      await exportSite({ sourceDir, outZip: zip, pool, jobId: 'se_0123456789abcdef', projectId: 'p', domain: 'docs.example', version: 'r1', createdAt: new Date('2026-01-01T00:00:00Z') });
    } finally {
      await pool.close();
    }
    t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl: 'placeholder', ...fastLoader } } });
    await t.start();
    await siteFeature(t.features).reload({ ...t.config, staticExport: { ...t.config.staticExport, bundleUrl: zip } });
  }, 60_000);
  afterAll(() => t.close());

  it('answers a pattern source with 308 and the destination, captures filled in', async () => {
    const res = await supertest(t.site).get('/beta/deep/page').expect(308);
    expect(res.headers.location).toBe('/v2/deep/page');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect((await supertest(t.site).get('/beta').expect(308)).headers.location).toBe('/v2/');
    expect((await supertest(t.site).get('/users/42/profile').expect(308)).headers.location).toBe('/people/42');
    expect((await supertest(t.site).get('/articles/concepts-getting-started').expect(308)).headers.location).toBe('/v2/intro');
    expect((await supertest(t.site).get('/ext/a/b').expect(308)).headers.location).toBe('https://elsewhere.example/docs/a/b');
  });

  it('uses 307 for permanent: false and keeps the query string', async () => {
    const res = await supertest(t.site).get('/tmp/intro?utm=x&y=1').expect(307);
    expect(res.headers.location).toBe('/v2/intro?utm=x&y=1');
  });

  it('leaves a path that a file answers alone, and still 404s what nothing matches', async () => {
    const kept = await supertest(t.site).get('/beta/kept').expect(200);
    expect(kept.text).toContain('A real page under a redirected prefix');
    // Static redirects stay meta-refresh pages.
    expect((await supertest(t.site).get('/old').expect(200)).text).toContain('url=/v2/intro');
    await supertest(t.site).get('/users/42/other').expect(404);
    await supertest(t.site).head('/beta/x').expect(308);
  });

  it('re-encodes captured text, so a decoded CR/LF or space cannot reach the Location header raw', async () => {
    const res = await supertest(t.site).get('/beta/a%0d%0aSet-Cookie:%20x=1/b%20c').expect(308);
    expect(res.headers.location).toBe('/v2/a%0D%0ASet-Cookie%3A%20x%3D1/b%20c');
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
