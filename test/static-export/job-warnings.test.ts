/** An export job's status counts its bundle's render warnings by kind and lists them (issue 38, point 9). */
import { afterEach, describe, expect, it } from 'vitest';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { pollJob, startExport } from './helpers.js';
import { consoleClient } from '../console/helpers.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('render warnings of a static export job', () => {
  it('are in the completed job: counts by kind, and each with file, line and page', async () => {
    const site = tempSite({
      'docs.json': JSON.stringify({ name: 'Warned', navigation: { pages: ['index', 'guide'] } }),
      'index.mdx': '---\ntitle: Home\n---\n\nSee [nothing](/no-such-page).\n',
      'guide.mdx': '---\ntitle: Guide\n---\n\nAlso [gone](/gone) and [here](/index).\n',
    });
    t = createTestAppliance({ sourceDir: site, config: { renderer: { threads: 1 } } });
    await t.start();
    const key = t.createKey();
    const job = await startExport(t, key, { domain: 'docs.test.internal' });
    const done = (await pollJob(t, key, job.jobId)).at(-1)! as typeof job & { warningCount: number; warningsByKind: Record<string, number>; warnings: { code: string; file: string; page?: string; line?: number }[] };
    expect(done.status).toBe('completed');
    expect(done.warningsByKind).toMatchObject({ 'broken-link': 2 });
    expect(done.warningCount).toBe(Object.values(done.warningsByKind).reduce((a, b) => a + b, 0));
    const broken = done.warnings.filter((w) => w.code === 'broken-link').sort((a, b) => (a.file < b.file ? -1 : 1));
    expect(broken.map((w) => [w.file, w.page])).toEqual([
      ['guide.mdx', '/guide'],
      ['index.mdx', '/'],
    ]);

    // The console's export table says the same, on the job's row.
    const c = consoleClient(t.admin);
    await c.signIn(key);
    const page = await c.page(`/console/orgs/${t.ctx.config.projects[0]!.orgId}/projects/${t.ctx.config.projects[0]!.id}`);
    expect(page.status).toBe(200);
    const row = page.text.split('<tr').find((r) => r.includes(job.jobId))!;
    expect(row).toContain(`${done.warningCount}: 2 broken-link`);
  }, 120_000);
});
