import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { sampleSite } from '../loader/helpers/bundle.js';
import { fastLoader, raw, serveSampleSite, siteFeature } from './helpers.js';

const files = sampleSite('v1');

describe('serving the active site', () => {
  let t: TestAppliance;
  let port: number;
  let closeServer: () => Promise<void>;

  beforeAll(async () => {
    ({ t, port, close: closeServer } = await serveSampleSite());
    // A file beside the sites, which no request may ever reach.
    fs.writeFileSync(path.join(t.stateDir, 'secret.txt'), 'top secret');
    fs.writeFileSync(path.join(t.stateDir, 'sites', 'secret.html'), 'top secret');
  });
  afterAll(() => closeServer());

  it('serves extensionless URLs, .html URLs, / and directory indexes', async () => {
    const a = await supertest(t.site).get('/guides/intro').expect(200);
    const b = await supertest(t.site).get('/guides/intro.html').expect(200);
    expect(a.text).toBe(files['guides/intro.html']);
    expect(b.text).toBe(a.text);
    expect(a.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await supertest(t.site).get('/').expect(200)).text).toBe(files['index.html']);
    expect((await supertest(t.site).get('/guides/').expect(200)).text).toBe(files['guides/index.html']);
    expect((await supertest(t.site).get('/guides').expect(200)).text).toBe(files['guides/index.html']);
    expect((await supertest(t.site).get('/guides/intro?utm=x').expect(200)).text).toBe(files['guides/intro.html']);
  });

  it("answers an unknown path with the bundle's 404.html and status 404", async () => {
    const res = await supertest(t.site).get('/no/such/page').expect(404);
    expect(res.text).toBe(files['404.html']);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('sends ETag and Last-Modified, and 304 for either validator', async () => {
    const identity = (url: string) => supertest(t.site).get(url).set('Accept-Encoding', 'identity');
    const first = await identity('/guides/intro').expect(200);
    const etag = first.headers.etag as string;
    // Strong ETag from the manifest's sha256.
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers['last-modified']).toMatch(/GMT$/);
    const notModified = await identity('/guides/intro').set('If-None-Match', etag).expect(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    await identity('/guides/intro').set('If-None-Match', `"other", W/${etag}`).expect(304);
    await identity('/guides/intro').set('If-None-Match', '"other"').expect(200);
    await identity('/guides/intro').set('If-Modified-Since', first.headers['last-modified'] as string).expect(304);
    await identity('/guides/intro').set('If-Modified-Since', new Date(0).toUTCString()).expect(200);
  });

  it('caches hashed assets for a year (immutable) and revalidates HTML and the search index', async () => {
    const css = await supertest(t.site).get('/_static/site.3f2a9c1b.css').expect(200);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const png = await supertest(t.site).get('/_assets/images/logo.0123abcd.png').expect(200);
    expect(png.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(png.headers['content-type']).toBe('image/png');
    expect((await supertest(t.site).get('/guides/intro').expect(200)).headers['cache-control']).toBe('no-cache');
    const index = await supertest(t.site).get('/_search/index.json').expect(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await supertest(t.site).get('/robots.txt').expect(200)).headers['cache-control']).toBe('no-cache');
  });

  it('compresses with brotli or gzip by Accept-Encoding, with Vary and a distinct ETag', async () => {
    const original = Buffer.from(files['guides/intro.html']!);
    const br = await raw(port, '/guides/intro', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    // A page varies by Accept too: the same URL answers with its Markdown when that is preferred.
    expect(br.headers.vary).toBe('Accept, Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(original.length / 4);
    expect(zlib.brotliDecompressSync(br.body).equals(original)).toBe(true);
    expect(br.headers.etag).toMatch(/-br"$/);

    const gz = await raw(port, '/guides/intro', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(original)).toBe(true);

    const refused = await raw(port, '/guides/intro', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(original)).toBe(true);

    // The compressed variant's ETag revalidates the same file.
    const again = await raw(port, '/guides/intro', { headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string } });
    expect(again.status).toBe(304);
    // Images are not recompressed; small files are not worth it.
    const png = await raw(port, '/_assets/images/logo.0123abcd.png', { headers: { 'accept-encoding': 'br' } });
    expect(png.headers['content-encoding']).toBeUndefined();
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await raw(port, '/guides/intro', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(files['guides/intro.html']!));
    expect(res.body.length).toBe(0);
    const missing = await raw(port, '/nope', { method: 'HEAD' });
    expect(missing.status).toBe(404);
    expect(missing.body.length).toBe(0);
  });

  it('serves byte ranges (206), suffix ranges, If-Range, and 416 past the end', async () => {
    const full = Buffer.from(files['guides/intro.html']!);
    const part = await raw(port, '/guides/intro', { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${full.length}`);
    expect(part.body.equals(full.subarray(0, 10))).toBe(true);
    // A range is served uncompressed even when the client accepts compression.
    const tail = await raw(port, '/guides/intro', { headers: { range: 'bytes=-5', 'accept-encoding': 'br' } });
    expect(tail.status).toBe(206);
    expect(tail.headers['content-encoding']).toBeUndefined();
    expect(tail.body.equals(full.subarray(full.length - 5))).toBe(true);
    const open = await raw(port, '/guides/intro', { headers: { range: `bytes=${full.length - 3}-` } });
    expect(open.body.equals(full.subarray(full.length - 3))).toBe(true);
    const stale = await raw(port, '/guides/intro', { headers: { range: 'bytes=0-9', 'if-range': '"stale"' } });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(full.length);
    const past = await raw(port, '/guides/intro', { headers: { range: `bytes=${full.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${full.length}`);
  });

  it('sends the Content-Security-Policy and the usual security headers', async () => {
    for (const url of ['/guides/intro', '/nope', '/_static/site.3f2a9c1b.css']) {
      const res = await supertest(t.site).get(url);
      expect(res.headers['content-security-policy']).toBe(t.config.site.contentSecurityPolicy);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('never serves a byte outside the active site', async () => {
    const attempts = [
      '/../secret.txt',
      '/../../secret.txt',
      '/..%2f..%2fsecret.txt',
      '/%2e%2e/%2e%2e/secret.txt',
      '/%2E%2E/%2E%2E/secret',
      '/%252e%252e/%252e%252e/secret.txt',
      '/..%5c..%5csecret.txt',
      '/..\\..\\secret.txt',
      '/guides/..%2f..%2f..%2fsecret.txt',
      '/%2e%2e/secret',
      '/..%252fsecret.html',
      '//etc/passwd',
      '/' + path.join(t.stateDir, 'secret.txt'),
      '/.%2e/.%2e/secret.txt',
    ];
    for (const p of attempts) {
      const res = await raw(port, p);
      expect([400, 404], p).toContain(res.status);
      expect(res.body.toString(), p).not.toContain('top secret');
      expect(res.body.toString(), p).not.toContain('root:');
    }
  });

  it('answers 400 for a NUL byte or a broken escape', async () => {
    expect((await raw(port, '/index.html%00.png')).status).toBe(400);
    expect((await raw(port, '/guides/%00')).status).toBe(400);
    expect((await raw(port, '/%E0%A4%A')).status).toBe(400);
  });

  it('does not serve hidden files', async () => {
    fs.writeFileSync(path.join(siteFeature(t.features).current()!.root, '.env'), 'SECRET=1');
    const res = await raw(port, '/.env');
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain('SECRET');
  });

  it('refuses other methods with 405 and answers anything under /_/ with 404', async () => {
    const post = await supertest(t.site).post('/guides/intro').expect(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    // The analytics feature, mounted before the site, answers its beacon endpoint itself.
    const beacon = await supertest(t.site).post('/_/events').send({});
    expect([404, 405]).not.toContain(beacon.status);
    await supertest(t.site).post('/_/unknown').send({}).expect(404);
    await supertest(t.site).get('/_/anything').expect(404);
    await supertest(t.site).get('/_').expect(404);
  });

  it('/readyz names the version served', async () => {
    const res = await t.api().get('/readyz').expect(200);
    expect(res.body.checks.site).toEqual({ ok: true, critical: false, detail: 'serving v1', sites: [{ site: 'bundle', served: true, detail: 'serving v1' }] });
    expect(t.ctx.stores.settings.get('site.active.projectId')).toBe('aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(t.ctx.stores.settings.get('site.active.version')).toBe('v1');
  });
});

describe('a failing load seen through the admin /readyz', () => {
  it('with nothing served, 503 (readers get 503 too) naming the reason and the retry', async () => {
    // Retries far apart: /readyz is answered after the failure, not while a retry is under way.
    const t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl: '/nonexistent/bundle.zip', ...fastLoader, retry: { minMs: 60_000, maxMs: 60_000 } } } });
    try {
      await t.start();
      await siteFeature(t.features).idle();
      const ready = await t.api().get('/readyz').expect(503);
      expect(ready.body.checks.site.ok).toBe(false);
      expect(ready.body.checks.site.critical).toBe(true);
      expect(ready.body.checks.site.detail).toMatch(/^last load refused: staticExport\.bundleUrl: \/nonexistent\/bundle\.zip cannot be read: ENOENT \(retrying will not cure it: .*\); retrying in \d+ s$/);
      await supertest(t.site).get('/').expect(503);
    } finally {
      await t.close();
    }
  });
});

describe('with nothing to serve', () => {
  it('answers 503 with a plain page; /readyz is 200 (nothing is configured to be served) and says why', async () => {
    const t = createTestAppliance();
    try {
      await t.start();
      const res = await supertest(t.site).get('/guides/intro').expect(503);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['retry-after']).toBe('30');
      expect(res.text).toContain('Documentation unavailable');
      const ready = await t.api().get('/readyz').expect(200);
      expect(ready.body.checks.site).toEqual({ ok: true, critical: false, detail: 'no bundle configured (staticExport.enabled is false) and no site published', sites: [] });
    } finally {
      await t.close();
    }
  });
});
