import type { IncomingMessage, ServerResponse } from 'node:http';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAppliance } from '../helpers/appliance.js';
import { siteFeature } from '../site/helpers.js';
import { accessSite, ADMIN_SECRET, PARTNER_SECRET, serveAccessSite, tableReaderAccess, USERS } from './helpers.js';

const ALICE = 'reader=alice'; // group admin
const BOB = 'reader=bob'; // group partner

/** Every path of the site, plus the Markdown and discovery routes, as a reader would ask. */
const READER_PATHS = [
  '/', '/index.html', '/guides/intro', '/admin/runbook', '/admin/runbook.html', '/admin/runbook.md', '/partner', '/partner.md',
  '/_assets/images/admin.0123abcd.png', '/404.html', '/llms.txt', '/llms-full.txt', '/.well-known/llms.txt', '/.well-known/llms-full.txt',
  '/sitemap.xml', '/manifest.json', '/_retrieval/sections.ndjson', '/no/such/page',
];

describe('reader access on the site listener (bundle with access)', () => {
  let t: TestAppliance;
  const get = (url: string, cookie?: string) => {
    const r = supertest(t.site).get(url);
    return cookie ? r.set('Cookie', cookie) : r;
  };

  beforeAll(async () => {
    t = await serveAccessSite(tableReaderAccess(USERS), { ...accessSite(), manifest: { redirects: [{ source: '/old/:slug*', destination: '/admin/:slug*', status: 308 }] } });
  });
  afterAll(() => t.close());

  it('sends a signed-out reader who asks for a restricted page to sign in (302 with the wanted path)', async () => {
    const res = await get('/admin/runbook?x=1').expect(302);
    expect(res.headers.location).toBe(`/login?redirect=${encodeURIComponent('/admin/runbook?x=1')}&p=aaaaaaaaaaaaaaaaaaaaaaaa`);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.vary).toBe('Cookie');
    expect(res.text).not.toContain(ADMIN_SECRET);
    expect((await get('/partner').expect(302)).headers.location).toContain(encodeURIComponent('/partner'));
  });

  it('answers 404 (the filtered 404 page) to a reader of another group, for assets and for Markdown', async () => {
    const page = await get('/admin/runbook', BOB).expect(404);
    expect(page.text).toContain('This page does not exist.');
    expect(page.text).toContain('Partner guide');
    expect(page.text).not.toContain(ADMIN_SECRET);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    // Signed out: assets and Markdown are 404, never a redirect.
    await get('/_assets/images/admin.0123abcd.png').expect(404);
    await get('/admin/runbook.md').expect(404);
    await get('/partner.md').expect(404);
    const md = await get('/admin/runbook').set('Accept', 'text/markdown').expect(404);
    expect(md.text).not.toContain(ADMIN_SECRET);
    await get('/admin/runbook', BOB).set('Accept', 'text/markdown').expect(404);
  });

  it('serves restricted pages, their Markdown and assets to a reader of the group', async () => {
    expect((await get('/admin/runbook', ALICE).expect(200)).text).toContain(`${ADMIN_SECRET} restart the reactor.`);
    expect((await get('/admin/runbook', ALICE).set('Accept', 'text/markdown').expect(200)).text).toContain(`# Runbook`);
    expect((await get('/admin/runbook.md', ALICE).expect(200)).text).toContain(ADMIN_SECRET);
    await get('/_assets/images/admin.0123abcd.png', ALICE).expect(200);
    // signed-in pages: any signed-in reader.
    expect((await get('/partner', BOB).expect(200)).text).toContain(PARTNER_SECRET);
    expect((await get('/partner', ALICE).expect(200)).text).toContain(PARTNER_SECRET);
  });

  it('never serves manifest.json (it lists every restricted path), not even to a signed-in reader', async () => {
    // Nor the section index: it holds every page's text (the assistant reads it per view, server-side).
    for (const cookie of [undefined, ALICE]) {
      expect((await get('/_retrieval/sections.ndjson', cookie).expect(404)).text).not.toContain('reactor discounts');
      const res = await get('/manifest.json', cookie).expect(404);
      expect(res.text).toContain('This page does not exist.');
      expect(res.text).not.toContain('sha256');
    }
  });

  it('marks every answer private with Vary: Cookie, keeping revalidation and immutability', async () => {
    const page = await get('/guides/intro').expect(200);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers.vary).toBe('Accept, Accept-Encoding, Cookie');
    const css = await get('/_static/site.3f2a9c1b.css').expect(200);
    expect(css.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(css.headers.vary).toBe('Accept-Encoding, Cookie');
    const missing = await get('/no/such/page').expect(404);
    expect(missing.headers['cache-control']).toBe('private, no-cache');
    expect(missing.headers.vary).toBe('Cookie');
  });

  it('filters the marked sidebar per view, with an ETag (and compressed forms) of its own per view', async () => {
    const anon = await get('/guides/intro').set('Accept-Encoding', 'identity').expect(200);
    const alice = await get('/guides/intro', ALICE).set('Accept-Encoding', 'identity').expect(200);
    const bob = await get('/guides/intro', BOB).set('Accept-Encoding', 'identity').expect(200);
    expect(anon.text).not.toContain('Admin runbook');
    expect(anon.text).not.toContain('Partner guide');
    expect(anon.text).not.toContain('<!--da:');
    expect(alice.text).toContain(`Admin runbook ${ADMIN_SECRET}-nav`);
    expect(alice.text).toContain('Partner guide');
    expect(bob.text).not.toContain('Admin runbook');
    expect(bob.text).toContain('Partner guide');
    expect(alice.text).not.toContain('<!--');
    const etags = new Set([anon, alice, bob].map((r) => r.headers.etag as string));
    expect(etags.size).toBe(3);
    expect(Number(anon.headers['content-length'])).toBe(Buffer.byteLength(anon.text));
    // A validator of one view is no 304 for another.
    await get('/guides/intro', ALICE).set('If-None-Match', alice.headers.etag as string).expect(304);
    await get('/guides/intro').set('If-None-Match', alice.headers.etag as string).expect(200);
    await get('/guides/intro', ALICE).set('If-Modified-Since', new Date(Date.now() + 86_400_000).toUTCString()).expect(200);
    // The compressed variant is the filtered text, with its own variant ETag.
    const br = await supertest(t.site).get('/guides/intro').set('Accept-Encoding', 'br').buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    }).expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.etag).toBe((anon.headers.etag as string).replace(/"$/, '-br"'));
    // superagent decodes br itself; the bytes on the wire were checked by content-encoding above.
    expect((br.body as Buffer).toString()).toBe(anon.text);
  });

  it('filters llms.txt, llms-full.txt and sitemap.xml per view, and pages still advertise llms.txt', async () => {
    for (const url of ['/llms.txt', '/.well-known/llms.txt', '/llms-full.txt', '/sitemap.xml']) {
      expect((await get(url).expect(200)).text).not.toContain(ADMIN_SECRET);
      expect((await get(url, ALICE).expect(200)).text).toContain(ADMIN_SECRET);
    }
    expect((await get('/llms.txt', BOB).expect(200)).text).toContain(PARTNER_SECRET);
    const page = await get('/').expect(200);
    expect(page.headers.link).toBe('</llms.txt>; rel="llms-txt", </llms-full.txt>; rel="llms-full-txt"');
    expect(page.headers['x-llms-txt']).toBe('/llms.txt');
  });

  it('keeps restricted marker strings out of every answer to an anonymous reader and to a reader of another group', async () => {
    for (const url of READER_PATHS) {
      for (const accept of [undefined, 'text/markdown']) {
        const anon = get(url);
        const bob = get(url, BOB);
        if (accept) {
          anon.set('Accept', accept);
          bob.set('Accept', accept);
        }
        const [a, b] = await Promise.all([anon, bob]);
        expect(`${JSON.stringify(a.headers)}${a.text ?? ''}${a.body instanceof Buffer ? a.body.toString() : ''}`, url).not.toContain(ADMIN_SECRET);
        expect(`${JSON.stringify(b.headers)}${b.text ?? ''}${b.body instanceof Buffer ? b.body.toString() : ''}`, url).not.toContain(ADMIN_SECRET);
        expect(`${a.text ?? ''}${a.body instanceof Buffer ? a.body.toString() : ''}`, url).not.toContain(PARTNER_SECRET);
      }
    }
  });

  it('keeps pattern redirects (they carry no content), private, and enforces their target', async () => {
    const res = await get('/old/runbook').expect(308);
    expect(res.headers.location).toBe('/admin/runbook');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.vary).toBe('Cookie');
    await get('/admin/runbook', BOB).expect(404);
  });

  it('never answers from the cache-hit fast path', async () => {
    await get('/guides/intro').expect(200);
    await get('/guides/intro').expect(200);
    let wrote = false;
    const req = { method: 'GET', url: '/guides/intro', headers: { host: 'localhost' } } as unknown as IncomingMessage;
    const res = { writeHead: () => (wrote = true), setHeader: () => undefined, end: () => undefined } as unknown as ServerResponse;
    expect(siteFeature(t.features).siteFastPath!(req, res)).toBe(false);
    expect(wrote).toBe(false);
  });
});

describe('a bundle with access and no sign-in service (fail closed)', () => {
  let t: TestAppliance;
  beforeAll(async () => {
    t = await serveAccessSite(undefined);
  });
  afterAll(() => t.close());

  it('serves only what an anonymous reader may see: restricted pages are 404, not a redirect, even with a cookie', async () => {
    await supertest(t.site).get('/admin/runbook').expect(404);
    await supertest(t.site).get('/admin/runbook').set('Cookie', ALICE).expect(404);
    await supertest(t.site).get('/partner').set('Cookie', BOB).expect(404);
    const home = await supertest(t.site).get('/').set('Cookie', ALICE).expect(200);
    expect(home.text).not.toContain(ADMIN_SECRET);
  });

  it('does the same when the project behind the bundle has no auth enabled', async () => {
    const other = await serveAccessSite(tableReaderAccess(USERS, ['bbbbbbbbbbbbbbbbbbbbbbbb']));
    try {
      await supertest(other.site).get('/admin/runbook').set('Cookie', ALICE).expect(404);
      expect((await supertest(other.site).get('/').set('Cookie', ALICE).expect(200)).text).not.toContain(ADMIN_SECRET);
    } finally {
      await other.close();
    }
  });
});

describe('a bundle without access, of a project without auth', () => {
  let t: TestAppliance;
  beforeAll(async () => {
    const { files } = accessSite();
    t = await serveAccessSite(tableReaderAccess(USERS, []), { files, access: undefined });
  });
  afterAll(() => t.close());

  it('is served as before: public caching, no Vary: Cookie, manifest served, cache-hit path answers', async () => {
    const page = await supertest(t.site).get('/guides/intro').expect(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toBe('Accept, Accept-Encoding');
    await supertest(t.site).get('/manifest.json').expect(200);
    await supertest(t.site).get('/admin/runbook').expect(200);
    await supertest(t.site).get('/guides/intro').set('Accept-Encoding', 'identity').expect(200);
    let status = 0;
    const req = { method: 'GET', url: '/guides/intro', headers: { host: 'localhost' } } as unknown as IncomingMessage;
    const res = { writeHead: (s: number) => (status = s), setHeader: () => undefined, end: () => undefined } as unknown as ServerResponse;
    expect(siteFeature(t.features).siteFastPath!(req, res)).toBe(true);
    expect(status).toBe(200);
  });
});

describe('a bundle without access, of a project given auth since its last publish', () => {
  let t: TestAppliance;
  beforeAll(async () => {
    const { files } = accessSite();
    t = await serveAccessSite(tableReaderAccess(USERS), { files, access: undefined });
  });
  afterAll(() => t.close());

  it('needs sign-in for everything until a publish renders the access map (fail closed, never a public window)', async () => {
    const page = await supertest(t.site).get('/guides/intro').expect(302);
    expect(page.headers.location).toContain(`/login?redirect=${encodeURIComponent('/guides/intro')}`);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    await supertest(t.site).get('/manifest.json').expect(404);
    await supertest(t.site).get('/llms.txt').expect(404);
    // The cache-hit path never answers it.
    const req = { method: 'GET', url: '/guides/intro', headers: { host: 'localhost' } } as unknown as IncomingMessage;
    const res = { writeHead: () => undefined, setHeader: () => undefined, end: () => undefined } as unknown as ServerResponse;
    expect(siteFeature(t.features).siteFastPath!(req, res)).toBe(false);
    // A signed-in reader (any group) reads every page: without a map there are no groups to enforce.
    const signedIn = await supertest(t.site).get('/guides/intro').set('Cookie', BOB).expect(200);
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
    expect(signedIn.headers.vary).toContain('Cookie');
  });
});
