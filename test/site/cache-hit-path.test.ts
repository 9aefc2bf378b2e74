import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { sampleSite } from '../loader/helpers/bundle.js';
import { bundleFile, fastLoader, listen, raw, serveSampleSite, siteFeature, type RawResponse } from './helpers.js';

const files = sampleSite('v1');

/** Headers that legitimately differ between two answers of the same file. */
const comparable = (r: RawResponse) => {
  const { date: _date, 'x-request-id': _id, connection: _c, 'keep-alive': _k, ...rest } = r.headers;
  return rest;
};

/** Cache hits counted in the shared request metric, after its once-a-second flush. */
async function cacheHits(t: TestAppliance): Promise<number> {
  await new Promise((r) => setTimeout(r, 1100));
  const metric = await t.ctx.metrics.httpRequests.get();
  return metric.values.filter((v) => v.labels.route === 'site-cache').reduce((sum, v) => sum + v.value, 0);
}

const requestLines = (t: TestAppliance) => t.logs.filter((l) => /"msg":"request"/.test(l) && /"listener":"site"/.test(l)).length;

/**
 * The cache-hit path answers a repeated GET/HEAD of an in-memory file before Express. Its answers
 * must be exactly the full path's: same status, headers (but the date and request id) and bytes.
 */
describe('the cache-hit path of the site listener', () => {
  let t: TestAppliance;
  let port: number;
  let closeServer: () => Promise<void>;

  beforeAll(async () => {
    ({ t, port, close: closeServer } = await serveSampleSite());
  });
  afterAll(() => closeServer());

  it('answers a repeated request exactly as the full path did, for identity, brotli and gzip', async () => {
    for (const encoding of [undefined, 'br', 'gzip, deflate', 'gzip, deflate, br']) {
      const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
      const first = await raw(port, '/guides/intro', { headers });
      const second = await raw(port, '/guides/intro', { headers });
      const third = await raw(port, '/guides/intro.html?utm=x', { headers });
      for (const r of [second, third]) {
        expect(r.status).toBe(200);
        expect(comparable(r)).toEqual(comparable(first));
        expect(r.body.equals(first.body)).toBe(true);
        expect(r.headers['x-request-id']).toBeTruthy();
      }
      const decoded = first.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(first.body) : first.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(first.body) : first.body;
      expect(decoded.toString()).toBe(files['guides/intro.html']);
      expect(first.headers['content-encoding']).toBe(encoding?.includes('br') ? 'br' : encoding ? 'gzip' : undefined);
    }
  });

  it('answers HEAD and 304s like the full path, with the variant ETag', async () => {
    const br = await raw(port, '/guides/intro', { headers: { 'accept-encoding': 'br' } });
    const head = await raw(port, '/guides/intro', { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(comparable(head)).toEqual(comparable(br));
    const etag = br.headers.etag!;
    expect(etag).toMatch(/-br"$/);
    const before = await cacheHits(t);
    const notModified = await raw(port, '/guides/intro', { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers['content-security-policy']).toBe(t.config.site.contentSecurityPolicy);
    // The identity tag of the same file also validates the compressed variant (weak comparison).
    const byDate = await raw(port, '/guides/intro', { headers: { 'if-modified-since': br.headers['last-modified']! } });
    expect(byDate.status).toBe(304);
    const stale = await raw(port, '/guides/intro', { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
    expect((await cacheHits(t)) - before).toBe(3);
  });

  it('counts cache hits in the request metric without writing an access log line; misses are logged', async () => {
    await raw(port, '/_static/site.3f2a9c1b.css');
    const lines = requestLines(t);
    const hitsBefore = await cacheHits(t);
    for (let i = 0; i < 5; i++) expect((await raw(port, '/_static/site.3f2a9c1b.css')).status).toBe(200);
    expect(requestLines(t)).toBe(lines);
    expect((await cacheHits(t)) - hitsBefore).toBe(5);
    expect((await raw(port, '/no/such/page')).status).toBe(404);
    expect(requestLines(t)).toBe(lines + 1);
  });

  it('gives every cache hit its own request id (the header lists are shared), and keeps a sane one from the caller', async () => {
    await raw(port, '/guides/intro');
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await raw(port, i % 2 ? '/guides/intro' : '/guides/intro.html', { headers: i % 3 ? { 'accept-encoding': 'br' } : {} });
      expect(r.status).toBe(200);
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(String(r.headers['x-request-id']));
    }
    expect(ids.size).toBe(20);
    expect((await raw(port, '/guides/intro', { headers: { 'x-request-id': 'trace-42' } })).headers['x-request-id']).toBe('trace-42');
    // A caller's id is not left in the shared list for the next reader.
    expect((await raw(port, '/guides/intro')).headers['x-request-id']).not.toBe('trace-42');
    const etag = (await raw(port, '/guides/intro')).headers.etag!;
    const a = await raw(port, '/guides/intro', { headers: { 'if-none-match': etag, 'x-request-id': 'trace-43' } });
    const b = await raw(port, '/guides/intro', { headers: { 'if-none-match': etag } });
    expect([a.status, b.status]).toEqual([304, 304]);
    expect(a.headers['x-request-id']).toBe('trace-43');
    expect(b.headers['x-request-id']).not.toBe('trace-43');
  });

  it('leaves a Markdown Accept to the full path after a browser Accept on the same page (the Accept answer is remembered per header value)', async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    await raw(port, '/guides/intro', { headers: { accept: browser } });
    const lines = requestLines(t);
    for (let i = 0; i < 2; i++) expect((await raw(port, '/guides/intro', { headers: { accept: browser } })).status).toBe(200);
    expect(requestLines(t)).toBe(lines);
    for (let i = 0; i < 2; i++) expect((await raw(port, '/guides/intro', { headers: { accept: 'text/markdown' } })).status).toBe(200);
    expect(requestLines(t)).toBe(lines + 2);
    expect((await raw(port, '/guides/intro', { headers: { accept: browser } })).status).toBe(200);
    expect(requestLines(t)).toBe(lines + 2);
  });

  it('leaves ranges, other methods and /_/ paths to the full path', async () => {
    const full = await raw(port, '/guides/intro');
    const part = await raw(port, '/guides/intro', { headers: { range: 'bytes=0-4' } });
    expect(part.status).toBe(206);
    expect(part.body.equals(full.body.subarray(0, 5))).toBe(true);
    expect((await raw(port, '/guides/intro', { method: 'POST' })).status).toBe(405);
    expect((await raw(port, '/_/nothing-here')).status).toBe(404);
  });

  it('applies a Content-Security-Policy changed by a reload to cache hits', async () => {
    await raw(port, '/guides/intro');
    const csp = "default-src 'none'";
    await siteFeature(t.features).reload({ ...t.config, site: { ...t.config.site, contentSecurityPolicy: csp }, staticExport: { ...t.config.staticExport, bundleUrl: bundleFile(t.stateDir, 'v1') } });
    for (let i = 0; i < 2; i++) expect((await raw(port, '/guides/intro')).headers['content-security-policy']).toBe(csp);
  });
});

describe('the cache-hit path on a mounted directory', () => {
  it('serves a changed file within the recheck interval, and stops serving a removed one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-mounted-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<p>home</p>');
    fs.writeFileSync(path.join(dir, 'page.html'), '<p>one</p>');
    const t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl: dir, ...fastLoader } } });
    await t.start();
    await siteFeature(t.features).idle();
    const server = await listen(t.site);
    try {
      expect((await raw(server.port, '/page')).body.toString()).toBe('<p>one</p>');
      expect((await raw(server.port, '/page')).body.toString()).toBe('<p>one</p>');
      fs.writeFileSync(path.join(dir, 'page.html'), '<p>two, longer</p>');
      await new Promise((r) => setTimeout(r, 1100));
      expect((await raw(server.port, '/page')).body.toString()).toBe('<p>two, longer</p>');
      fs.rmSync(path.join(dir, 'page.html'));
      await new Promise((r) => setTimeout(r, 1100));
      expect((await raw(server.port, '/page')).status).toBe(404);
    } finally {
      await server.close();
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
