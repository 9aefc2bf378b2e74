import fs from 'node:fs';
import zlib from 'node:zlib';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { summariseWarnings } from '../../app/loader/render-warnings.js';
import { packBundle } from '../../app/static-export/access-variants.js';
import type { ExportRunner } from '../../app/static-export/export-thread.js';
import { createTestAppliance, TEST_ORG, type TestAppliance } from '../helpers/appliance.js';
import { sha256 } from '../loader/helpers/bundle.js';
import { binary, checkTarGzAgainstManifest, linkPath, pollJob, startExport, type BundleBody } from '../static-export/helpers.js';
import { accessBundle, accessSite, ADMIN_SECRET, PARTNER_SECRET } from './helpers.js';

/**
 * The export thread as a test double: it "renders" the hand-written bundle (the renderer of this
 * branch does not write `access` yet) and then packs it exactly as the export thread does.
 */
function handWrittenRunner(withAccess: boolean): ExportRunner {
  return {
    async run(request) {
      const { files, access } = accessSite();
      fs.writeFileSync(request.outZip, accessBundle(files, withAccess ? access : undefined, request.version));
      const packed = await packBundle({ ...request, outTarGz: request.outTarGz! });
      return { pageCount: 5, sizeBytes: packed.sizeBytes ?? fs.statSync(request.outZip).size, tarGzBytes: packed.tarGzBytes, warnings: summariseWarnings([], () => true), failures: [], timings: {} };
    },
    unknownPaths: async () => [],
    close: async () => undefined,
  };
}

const allText = (files: Record<string, Uint8Array>) => Object.values(files).map((b) => Buffer.from(b).toString('latin1')).join('\n');

describe('static export of a bundle with reader access', () => {
  let t: TestAppliance | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function exportJob(withAccess: boolean) {
    t = createTestAppliance({ exportRunner: handWrittenRunner(withAccess) });
    await t.start();
    const key = t.createKey(TEST_ORG);
    const job = await startExport(t, key);
    const seen = await pollJob(t, key, job.jobId);
    expect(seen.at(-1)!.status).toBe('completed');
    const link = async (body?: Record<string, unknown>) => {
      const req = t!.api(key).post(`/v1/static-export/jobs/${job.jobId}/bundle`);
      const res = await (body ? req.send(body) : req).expect(200);
      return res.body as BundleBody;
    };
    const download = async (b: BundleBody) => (await t!.api().get(linkPath(b.bundleUrl)).buffer(true).parse(binary).expect(200)).body as Buffer;
    return { key, job, link, download };
  }

  it('by default holds only what a signed-out reader may see, filtered, with a manifest without access', async () => {
    const { link, download } = await exportJob(true);
    const zipLink = await link({ format: 'zip' });
    const zip = await download(zipLink);
    expect(zip.length).toBe(zipLink.sizeBytes);
    const files = unzipSync(zip);
    expect(Object.keys(files)).not.toContain('admin/runbook.html');
    expect(Object.keys(files)).not.toContain('partner.md');
    expect(Object.keys(files)).not.toContain('_assets/images/admin.0123abcd.png');
    expect(Object.keys(files)).toContain('guides/intro.html');
    expect(allText(files)).not.toContain(ADMIN_SECRET);
    expect(allText(files)).not.toContain(PARTNER_SECRET);
    expect(allText(files)).not.toContain('<!--da:');
    // The section index keeps the public pages' sections only.
    expect(Buffer.from(files['_retrieval/sections.ndjson']!).toString()).toContain('Install the reactor software.');
    const manifest = JSON.parse(Buffer.from(files['manifest.json']!).toString());
    expect(manifest.access).toBeUndefined();
    for (const f of manifest.files) expect(f.sha256, f.path).toBe(sha256(Buffer.from(files[f.path]!)));
    // The tar.gz (the default) holds the same files.
    const tgz = await download(await link());
    const { names } = await checkTarGzAgainstManifest(tgz);
    expect([...names, 'manifest.json'].sort()).toEqual(Object.keys(files).sort());
    expect(zlib.gunzipSync(tgz).toString('latin1')).not.toContain(ADMIN_SECRET);
  });

  it('with {"include": "all"} holds every page, markers stripped, manifest without access', async () => {
    const { link, download } = await exportJob(true);
    const zipLink = await link({ format: 'zip', include: 'all' });
    expect(zipLink.bundleUrl).toContain('/bundle.all.zip?');
    const zip = await download(zipLink);
    expect(zip.length).toBe(zipLink.sizeBytes);
    const files = unzipSync(zip);
    expect(Object.keys(files)).toContain('admin/runbook.html');
    expect(Buffer.from(files['admin/runbook.html']!).toString()).toContain(ADMIN_SECRET);
    expect(Buffer.from(files['guides/intro.html']!).toString()).toContain('Admin runbook');
    expect(allText(files)).not.toContain('<!--da:');
    expect(JSON.parse(Buffer.from(files['manifest.json']!).toString()).access).toBeUndefined();
    const tgzLink = await link({ include: 'all' });
    expect(tgzLink.bundleUrl).toContain('/bundle.all.tar.gz?');
    const { names } = await checkTarGzAgainstManifest(await download(tgzLink));
    expect(names).toContain('admin/runbook.html');
  });

  it('refuses an unknown include (400), and a public link does not open the all bundle', async () => {
    const { key, job, link } = await exportJob(true);
    const res = await t!.api(key).post(`/v1/static-export/jobs/${job.jobId}/bundle`).send({ include: 'everything' }).expect(400);
    expect(JSON.stringify(res.body)).toContain('include');
    const pub = await link({ format: 'zip' });
    const forged = linkPath(pub.bundleUrl).replace('/bundle.zip?', '/bundle.all.zip?');
    await t!.api().get(forged).expect(403);
  });

  it('a bundle without access exports unchanged, include all or not', async () => {
    const { link, download } = await exportJob(false);
    const pub = await link({ format: 'zip' });
    const all = await link({ format: 'zip', include: 'all' });
    expect(all.bundleUrl).toContain('/bundle.zip?');
    const { files } = accessSite();
    const expected = accessBundle(files, undefined, JSON.parse(Buffer.from(unzipSync(await download(pub))['manifest.json']!).toString()).version);
    expect((await download(pub)).equals(expected)).toBe(true);
  });
});
