import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { fastLoader, siteAppliance } from '../site/helpers.js';
import { tempDir } from '../loader/helpers/servers.js';
import { removeTree } from '../../app/fs-tree.js';
import { pollJob, startExport, type BundleBody } from './helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/*
 * The round trip of issue 17: an export job, its default bundle link (the tar.gz), that link as
 * another appliance's staticExport.bundleUrl, and that appliance serving the site. The loader
 * verifies the tar.gz against its manifest exactly as a zip (app/loader/load-bundle.ts).
 */
describe('a tar.gz bundle from the bundle operation, loaded through staticExport.bundleUrl', () => {
  it('is fetched over the signed link, verified against its manifest and served', async () => {
    const t: TestAppliance = createTestAppliance({ config: { renderer: { threads: 1 } } });
    cleanups.push(() => t.close());
    await t.start();
    const key = t.createKey();
    const job = await startExport(t, key);
    expect((await pollJob(t, key, job.jobId)).pop()!.status).toBe('completed');

    // The admin API on a real port: the link is built on the Host the client used.
    const server = http.createServer(t.admin);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const bundle = (await res.json()) as BundleBody;
    expect(bundle.format).toBe('tar.gz');
    expect(new URL(bundle.bundleUrl).pathname).toBe(`/v1/static-export/jobs/${job.jobId}/bundle.tar.gz`);

    const stateDir = tempDir('tar-roundtrip-');
    cleanups.push(() => removeTree(stateDir));
    const site = siteAppliance(stateDir, { staticExport: { enabled: true, bundleUrl: bundle.bundleUrl, ...fastLoader } });
    cleanups.push(() => site.close());
    await site.start();
    const end = Date.now() + 30_000;
    while (site.site.current()?.version !== job.jobId) {
      if (Date.now() > end) throw new Error(`the site did not load the bundle: ${JSON.stringify(site.site.ready?.())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const page = await supertest(site.app).get('/guides/intro').expect(200);
    expect(page.text).toContain('Run the installer.');
  }, 90_000);
});
