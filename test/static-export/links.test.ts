import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../app/clock.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { binary, linkPath, pollJob, startExport, type BundleBody } from './helpers.js';

let t: TestAppliance;
let key: string;
let jobId: string;
let size: number;
let clock: ReturnType<typeof manualClock>;

/** The zip's link unless asked otherwise: these tests spell variants of `bundle.zip`; the tar.gz link is checked at the end. */
async function bundle(format: 'zip' | 'tar.gz' = 'zip'): Promise<BundleBody> {
  return (await t.api(key).post(`/v1/static-export/jobs/${jobId}/bundle`).send({ format }).expect(200)).body as BundleBody;
}
const download = (url: string) => t.api().get(url).buffer(true).parse(binary);

// One appliance and one finished export for the file: every test only signs and follows links to
// that job's archive (and moves the clock forward, which each test reads afresh). An export per
// test cost ~4 s ten times over.
beforeAll(async () => {
  clock = manualClock(new Date());
  t = createTestAppliance({ clock, config: { renderer: { threads: 1 }, staticExport: { linkTtlSeconds: 600 } } });
  await t.start();
  key = t.createKey();
  jobId = (await startExport(t, key)).jobId;
  expect((await pollJob(t, key, jobId)).pop()!.status).toBe('completed');
  size = (await bundle()).sizeBytes;
});
afterAll(async () => {
  await t.close();
});

describe('signed bundle links', () => {
  it('expire after the configured lifetime (403), and a new bundle call gives a new link to the same bytes', async () => {
    const first = await bundle();
    expect(new Date(first.expiresAt).getTime()).toBe(Math.floor(clock.now().getTime() / 1000) * 1000 + 600_000);
    const before = (await download(linkPath(first.bundleUrl)).expect(200)).body as Buffer;

    clock.advance(599_000);
    await download(linkPath(first.bundleUrl)).expect(200);
    clock.advance(1_000);
    const expired = await t.api().get(linkPath(first.bundleUrl)).expect(403);
    expect(expired.body.error).toMatch(/expired/);
    await t.api().head(linkPath(first.bundleUrl)).expect(403);

    // The job and its files outlive the link.
    await t.api(key).get(`/v1/static-export/jobs/${jobId}`).expect(200);
    const second = await bundle();
    expect(second.bundleUrl).not.toBe(first.bundleUrl);
    expect(second.sizeBytes).toBe(first.sizeBytes);
    const after = (await download(linkPath(second.bundleUrl)).expect(200)).body as Buffer;
    expect(after.equals(before)).toBe(true);
  });

  it('every bundle call signs a fresh link for the same archive', async () => {
    const a = await bundle();
    clock.advance(1_000);
    const b = await bundle();
    expect(a.bundleUrl).not.toBe(b.bundleUrl);
    expect(new Date(b.expiresAt).getTime()).toBeGreaterThan(new Date(a.expiresAt).getTime());
    const ra = await download(linkPath(a.bundleUrl)).expect(200);
    const rb = await download(linkPath(b.bundleUrl)).expect(200);
    expect(ra.headers.etag).toBe(rb.headers.etag);
  });

  it('refuses a tampered signature, expiry, key id or job id with 403, and a link missing a parameter', async () => {
    const url = new URL((await bundle()).bundleUrl);
    const q = url.searchParams;
    const sig = q.get('signature')!;
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    const variants: Record<string, string> = {
      signature: `${url.pathname}?expires=${q.get('expires')}&kid=${q.get('kid')}&signature=${flipped}`,
      shortSignature: `${url.pathname}?expires=${q.get('expires')}&kid=${q.get('kid')}&signature=${sig.slice(0, 20)}`,
      expires: `${url.pathname}?expires=${Number(q.get('expires')) + 3600}&kid=${q.get('kid')}&signature=${sig}`,
      kid: `${url.pathname}?expires=${q.get('expires')}&kid=deadbeef&signature=${sig}`,
      otherJob: `/v1/static-export/jobs/se_0000000000000000/bundle.zip?${q.toString()}`,
      noSignature: `${url.pathname}?expires=${q.get('expires')}&kid=${q.get('kid')}`,
      nothing: url.pathname,
    };
    for (const [what, path] of Object.entries(variants)) {
      const res = await t.api().get(path);
      expect(res.status, what).toBe(403);
      expect(Object.keys(res.body), what).toEqual(['error']);
    }
    // An admin key is no substitute for the signature.
    await t.api(key).get(url.pathname).expect(403);
  });

  it('accepts one spelling of a link: encoded names or paths, leading zeros, other case, a trailing slash, repeated or extra parameters are 403; the log never holds the signature', async () => {
    const url = new URL((await bundle()).bundleUrl);
    const q = url.searchParams;
    const [expires, kid, sig] = [q.get('expires')!, q.get('kid')!, q.get('signature')!];
    const hex = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
    const p = url.pathname;
    const variants: Record<string, string> = {
      encodedName: `${p}?expires=${expires}&kid=${kid}&%73ignature=${sig}`,
      encodedNameUpper: `${p}?expires=${expires}&kid=${kid}&%53ignature=${sig}`,
      upperName: `${p}?expires=${expires}&kid=${kid}&SIGNATURE=${sig}`,
      leadingZero: `${p}?expires=0${expires}&kid=${kid}&signature=${sig}`,
      encodedValue: `${p}?expires=${expires}&kid=${hex(kid[0]!)}${kid.slice(1)}&signature=${sig}`,
      upperPath: `${p.replace('bundle.zip', 'BUNDLE.zip')}?${q.toString()}`,
      upperPrefix: `${p.replace('/v1/', '/V1/')}?${q.toString()}`,
      trailingSlash: `${p}/?${q.toString()}`,
      encodedJobId: `${p.replace(`/${jobId}/`, `/se_${hex(jobId[3]!)}${jobId.slice(4)}/`)}?${q.toString()}`,
      repeated: `${p}?expires=${expires}&kid=${kid}&signature=${sig}&signature=${sig}`,
      extra: `${p}?expires=${expires}&kid=${kid}&signature=${sig}&download=1`,
      emptyPart: `${p}?expires=${expires}&&kid=${kid}&signature=${sig}`,
    };
    for (const [what, path] of Object.entries(variants)) {
      // Plain supertest: most of these paths are (rightly) not in the OpenAPI document.
      const res = await supertest(t.admin).get(path);
      expect(res.status, what).toBe(403);
      expect(res.body.error, what).toMatch(/^Bundle link/);
    }
    // An escaped dot is not the download route at all: the admin API asks for a key.
    expect((await supertest(t.admin).get(`${p.replace('bundle.zip', 'bundle%2Ezip')}?${q.toString()}`)).status).toBe(401);
    // The parameters in another order are the same spelling (a proxy may sort a query).
    await download(`${p}?signature=${sig}&kid=${kid}&expires=${expires}`).expect(200);
    await download(`${p}?${q.toString()}`).expect(200);
    const joined = t.logs.join('');
    expect(joined).toContain('%73ignature=[REDACTED]');
    expect(joined).toContain('SIGNATURE=[REDACTED]');
    expect(joined).not.toContain(sig);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const path = linkPath((await bundle()).bundleUrl);
    const res = await t.api().head(path).expect(200);
    expect(res.headers['content-length']).toBe(String(size));
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^"se_[0-9a-f]{16}-[0-9a-f]+"$/);
    expect(res.body).toEqual({});
  });

  it('serves byte ranges (206), refuses an unsatisfiable one (416), and honours If-None-Match (304) and If-Range', async () => {
    const path = linkPath((await bundle()).bundleUrl);
    const whole = (await download(path).expect(200)).body as Buffer;

    const part = await download(path).set('Range', 'bytes=10-109').expect(206);
    expect(part.headers['content-range']).toBe(`bytes 10-109/${size}`);
    expect(part.headers['content-length']).toBe('100');
    expect((part.body as Buffer).equals(whole.subarray(10, 110))).toBe(true);

    const tail = await download(path).set('Range', 'bytes=-22').expect(206);
    expect((tail.body as Buffer).equals(whole.subarray(size - 22))).toBe(true);

    const bad = await t.api().get(path).set('Range', `bytes=${size + 10}-${size + 20}`).expect(416);
    expect(bad.headers['content-range']).toBe(`bytes */${size}`);
    expect(bad.body.error).toMatch(/Range not satisfiable/);

    const etag = part.headers.etag!;
    await t.api().get(path).set('If-None-Match', etag).expect(304);
    // If-Range with the current ETag gives the range; with a stale one, the whole file.
    await download(path).set('Range', 'bytes=0-9').set('If-Range', etag).expect(206);
    const stale = await download(path).set('Range', 'bytes=0-9').set('If-Range', '"se_0000000000000000-1"').expect(200);
    expect((stale.body as Buffer).length).toBe(size);
  });

  it('never writes a signature into the log', async () => {
    const url = new URL((await bundle()).bundleUrl);
    const sig = url.searchParams.get('signature')!;
    await download(linkPath(url.href)).expect(200);
    await t.api().get(`${url.pathname}?expires=1&kid=${url.searchParams.get('kid')}&signature=${sig}`).expect(403);
    clock.advance(3600_000);
    await t.api().get(linkPath(url.href)).expect(403);
    const joined = t.logs.join('');
    expect(joined).toContain('/bundle.zip?');
    expect(joined).not.toContain(sig);
    expect(joined).not.toContain(encodeURIComponent(sig));
  });

  it('builds bundleUrl on admin.publicUrl when it is configured', async () => {
    const other = createTestAppliance({ config: { renderer: { threads: 1 }, admin: { publicUrl: 'https://docs-admin.example.internal/base/' } } });
    try {
      await other.start();
      const k = other.createKey();
      const job = await startExport(other, k);
      await pollJob(other, k, job.jobId);
      const b = (await other.api(k).post(`/v1/static-export/jobs/${job.jobId}/bundle`).expect(200)).body as BundleBody;
      expect(b.bundleUrl.startsWith(`https://docs-admin.example.internal/base/v1/static-export/jobs/${job.jobId}/bundle.tar.gz?expires=`)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('signs one link per format: a tar.gz link does not open the zip nor the other way round; HEAD and Range work on both', async () => {
    const tgz = await bundle('tar.gz');
    const zip = await bundle('zip');
    expect(tgz.format).toBe('tar.gz');
    expect(tgz.sizeBytes).not.toBe(zip.sizeBytes);
    const tgzPath = linkPath(tgz.bundleUrl);
    const zipPath = linkPath(zip.bundleUrl);
    expect(tgzPath.startsWith(`/v1/static-export/jobs/${jobId}/bundle.tar.gz?`)).toBe(true);
    // The query of one format's link on the other's path: a signature over another path.
    const swapped = await supertest(t.admin).get(`${zipPath.split('?')[0]}?${tgzPath.split('?')[1]}`);
    expect(swapped.status).toBe(403);
    expect((await supertest(t.admin).get(`${tgzPath.split('?')[0]}?${zipPath.split('?')[1]}`)).status).toBe(403);
    const head = await t.api().head(tgzPath).expect(200);
    expect(head.headers['content-type']).toBe('application/gzip');
    expect(head.headers['content-length']).toBe(String(tgz.sizeBytes));
    expect(head.headers.etag).toMatch(/^"se_[0-9a-f]{16}-tgz-[0-9a-f]+"$/);
    const part = await download(tgzPath).set('Range', 'bytes=0-1').expect(206);
    // The gzip magic number.
    expect([...(part.body as Buffer)]).toEqual([0x1f, 0x8b]);
  });

  it('answers 400 for an unknown format, and ignores unknown fields in the bundle request', async () => {
    const bad = await t.api(key).post(`/v1/static-export/jobs/${jobId}/bundle`).send({ format: 'rar' }).expect(400);
    expect(bad.body.error).toContain('format: must be one of "tar.gz", "zip"');
    const ok = await t.api(key).post(`/v1/static-export/jobs/${jobId}/bundle`).send({ format: 'zip', compression: 'max' }).expect(200);
    expect(ok.body.format).toBe('zip');
  });
});
