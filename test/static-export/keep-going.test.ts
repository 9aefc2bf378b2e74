import JSZip from 'jszip';
import { afterEach, describe, expect, it } from 'vitest';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { binary, linkPath, pollJob, startExport, type BundleBody } from './helpers.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Three pages: one fine, one with a syntax error, one importing a snippet that is not JavaScript. */
function brokenSite(): string {
  return tempSite({
    'docs.json': JSON.stringify({ name: 'Broken', navigation: { pages: ['index', 'bad', 'uses-snippet'] } }),
    'index.mdx': '---\ntitle: Home\n---\n\nFine.\n',
    'bad.mdx': '---\ntitle: Bad\n---\n\nTotal: {1 +}\n',
    'uses-snippet.mdx': "import { Broken } from '/snippets/broken.jsx';\n\n<Broken />\n",
    'snippets/broken.jsx': 'export const Broken = () => <div>{</div>;\n',
  });
}

describe('static export jobs with keepGoing', () => {
  it('fails the job by default, naming file:line:column', async () => {
    t = createTestAppliance({ sourceDir: brokenSite(), config: { renderer: { threads: 1 } } });
    await t.start();
    const key = t.createKey();
    const job = await startExport(t, key);
    const done = (await pollJob(t, key, job.jobId)).at(-1)!;
    expect(done.status).toBe('failed');
    expect(done.error).toContain('bad.mdx:5:12: Could not parse: Unexpected token');
    expect(done.error).toMatch(/snippets\/broken\.jsx:1:\d+: Could not parse: .* \(page uses-snippet\)/);
  });

  it('exports the pages that render and lists the others in the job and the manifest', async () => {
    t = createTestAppliance({ sourceDir: brokenSite(), config: { renderer: { threads: 1 } } });
    await t.start();
    const key = t.createKey();
    const job = await startExport(t, key, { domain: 'docs.test.internal', keepGoing: true });
    expect(job).toMatchObject({ status: 'queued', keepGoing: true });
    const done = (await pollJob(t, key, job.jobId)).at(-1)! as typeof job & { failureCount: number; failures: unknown[] };
    expect(done).toMatchObject({ status: 'completed', pageCount: 1, keepGoing: true, failureCount: 2 });
    expect(done.failures).toEqual([
      { path: 'bad', file: 'bad.mdx', line: 5, column: 12, message: 'Could not parse: Unexpected token' },
      { path: 'uses-snippet', file: 'snippets/broken.jsx', line: 1, column: expect.any(Number), message: expect.stringMatching(/^Could not parse: /) },
    ]);

    const bundle = (await t.api(key).post(`/v1/static-export/jobs/${job.jobId}/bundle`).send({ format: 'zip' }).expect(200)).body as BundleBody;
    const zip = await JSZip.loadAsync((await t.api().get(linkPath(bundle.bundleUrl)).buffer(true).parse(binary).expect(200)).body as Buffer);
    const manifest = JSON.parse(await zip.file('manifest.json')!.async('string')) as { pageCount: number; failures: unknown[] };
    expect(manifest.pageCount).toBe(1);
    expect(manifest.failures).toEqual(done.failures);
    expect(zip.file('index.html')).not.toBeNull();
    expect(zip.file('bad.html')).toBeNull();
    expect(await zip.file('sitemap.xml')!.async('string')).not.toContain('bad');
  });

  it('answers 400 for a keepGoing that is not a boolean', async () => {
    t = createTestAppliance({ config: { renderer: { threads: 1 } } });
    const key = t.createKey();
    const res = await t.api(key).post('/v1/static-export/jobs').send({ domain: 'docs.test.internal', keepGoing: 'yes' }).expect(400);
    expect(res.body.error).toMatch(/keepGoing: must be true or false/);
  });
});

