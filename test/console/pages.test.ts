import { afterEach, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ejs from 'ejs';
import { parseConfig } from '../../config/load.js';
import { exportSite } from '../../renderer/index.js';
import { createTestAppliance, OTHER_ORG, TEST_ORG, TEST_PROJECT, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { sharedRenderPool } from '../helpers/render-pool.js';
import { importEvents } from '../analytics/helpers.js';
import { fastLoader, siteFeature } from '../site/helpers.js';
import { consoleClient, publishFromConsole } from './helpers.js';

/** As the console's templates escape text. */
const escapeHtml = (s: string) => ejs.escapeXML(s);

let a: TestAppliance;
afterEach(async () => {
  await a?.close();
});

const base = `/console/orgs/${TEST_ORG}`;
const DAY = 86_400_000;

describe('console pages', () => {
  test("the overview shows a configured bundle as served and the loader's health after a failed reload; another organization sees neither", async () => {
    // A bundle of the test project exported by the renderer, which the loader verifies and serves.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-bundle-'));
    const zip = path.join(dir, 'bundle.zip');
    await exportSite({ pool: sharedRenderPool(), sourceDir: writeTinyDocs(path.join(dir, 'docs')), outZip: zip, projectId: TEST_PROJECT, domain: 'docs.test.internal', version: 'bundle-1' });
    a = createTestAppliance({ config: { staticExport: { enabled: true, ...fastLoader, bundleUrl: zip, version: 'bundle-1' } } });
    await a.start();
    const site = siteFeature(a.features);
    await site.idle();
    const activatedAt = site.loader.active!.activatedAt;
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    const page = await c.page(base);
    expect(page.text).toMatch(new RegExp(`<td>bundle-1</td>\\s*<td><time datetime="${activatedAt}" title="[^"]+ UTC">[^<]+</time></td>\\s*<td>configured bundle \\(staticExport\\)</td>`));
    expect(page.text).toContain(`Test docs: version <code>bundle-1</code>, served since <time datetime="${activatedAt}"`);
    expect(page.text).toContain('<span class="badge ok">healthy</span>');

    // A SIGHUP naming a bundle that is not there: the load fails, the served bundle stays.
    await site.reload(parseConfig({ ...a.config, staticExport: { ...a.config.staticExport, bundleUrl: path.join(dir, 'gone.zip'), version: 'bundle-2' } }, { source: 'test' }));
    const lastError = site.loader.status.lastError!;
    expect(lastError).toBeTruthy();
    const failing = await c.page(base);
    expect(failing.text).toContain(`<span class="badge bad">failing</span> ${escapeHtml(lastError)}`);
    expect(failing.text).toContain('<td>bundle-1</td>');
    // Another organization sees neither the served version nor the loader of this site.
    const other = consoleClient(a.admin);
    await other.signIn(a.createKey(OTHER_ORG));
    const theirs = await other.page(`/console/orgs/${OTHER_ORG}`);
    expect(theirs.text).not.toContain('bundle-1');
    expect(theirs.text).not.toContain(escapeHtml(lastError));
    expect(theirs.text).toContain("None of this organization's projects is served by this appliance yet.");
    expect(theirs.text).toContain('The loader serves another site.');
  }, 60_000);

  test('the first-start example is shown as served only until a publish replaces it', async () => {
    // One project and nothing configured: the first start exports it as the example (the renderer, its own pool).
    const source = writeTinyDocs(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'console-example-')), 'docs'));
    a = createTestAppliance({
      sourceDir: source,
      config: { organizations: [{ id: TEST_ORG, name: 'Test', plan: 'enterprise' }], projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: 'docs.test.internal', sourceDir: source }] },
    });
    await a.start();
    const site = siteFeature(a.features);
    await site.idle();
    const example = site.loader.active!;
    expect(example.version).toMatch(/^example-/);
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    const before = await c.page(base);
    expect(before.text).toMatch(new RegExp(`<td>${example.version}</td>\\s*<td><time datetime="${example.activatedAt}"[^>]*>[^<]+</time></td>\\s*<td>first-start example</td>`));
    expect(before.text).toContain(`Test docs: version <code>${example.version}</code>`);

    // A publish is what the project's domain serves from then on: the example is no longer shown.
    const published = await publishFromConsole(c, a, `${base}/projects/${TEST_PROJECT}`);
    const after = await c.page(base);
    expect(after.text).toMatch(new RegExp(`<td>${published.version}</td>\\s*<td><time datetime="${a.clock.now().toISOString()}"[^>]*>just now</time></td>\\s*<td>published</td>`));
    expect(after.text).toContain(`Test docs: version <code>${published.version}</code>`);
    expect(after.text).not.toContain(example.version);
    expect(after.text).not.toContain('first-start example');
  }, 120_000);

  test('a key created in the console is shown once, has the chosen scopes and expiry, and works against the API', async () => {
    a = createTestAppliance();
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    await c.page(`${base}/keys`);
    const res = await c.post(`${base}/keys`, { scopes: 'read', label: 'dashboard', expiresInDays: '30' });
    expect(res.status).toBe(201);
    const key = /id="created-key" class="secret" readonly value="(mint_[0-9A-Za-z]+)"/.exec(res.text)![1]!;
    const record = a.ctx.stores.adminKeys.list(TEST_ORG).find((k) => k.label === 'dashboard')!;
    expect(record.scopes).toEqual(['read']);
    expect(Date.parse(record.expiresAt!)).toBe(a.clock.now().getTime() + 30 * DAY);
    // Read works, write does not: the API's own rules for the key.
    await a.api(key).get(`/v2/agent/${TEST_PROJECT}/job/nope`).expect(404);
    await a.api(key).post(`/v2/agent/${TEST_PROJECT}/job`).send({}).expect(403);
    // Shown once: the list shows only the prefix.
    const list = await c.page(`${base}/keys`);
    expect(list.text).not.toContain(key);
    expect(list.text).toContain(`${record.prefix}…`);

    for (const [fields, problem] of [
      [{ label: 'x' }, 'choose at least one scope'],
      [{ scopes: 'admin' }, 'scopes are read and write'],
      [{ scopes: 'read', expiresInDays: '0' }, 'expiry is a whole number of days'],
      [{ scopes: 'read', expiresInDays: '1.5' }, 'expiry is a whole number of days'],
    ] as const) {
      const bad = await c.post(`${base}/keys`, fields);
      expect(bad.status).toBe(400);
      expect(bad.text).toContain(problem);
    }
  });

  test('tables sort and page on the server, and every table downloads as CSV', async () => {
    a = createTestAppliance();
    for (let i = 0; i < 25; i++) a.ctx.stores.adminKeys.create({ orgId: TEST_ORG, label: `k${String(i).padStart(2, '0')}` });
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    const labelsOn = (html: string) => [...html.matchAll(/<td>(k\d\d)<\/td>/g)].map((m) => m[1]);
    const p1 = await c.page(`${base}/keys?keys.sort=label&keys.dir=asc`);
    // The two keys without a label (the initial key and the signed-in one) sort first.
    expect(labelsOn(p1.text)).toEqual(Array.from({ length: 18 }, (_, i) => `k${String(i).padStart(2, '0')}`));
    expect(p1.text).toContain('Page 1 of 2 (27 rows)');
    expect(p1.text).toContain('aria-sort="ascending"');
    const p2 = await c.page(`${base}/keys?keys.sort=label&keys.dir=asc&keys.page=2`);
    expect(labelsOn(p2.text)).toEqual(['k18', 'k19', 'k20', 'k21', 'k22', 'k23', 'k24']);
    const desc = await c.page(`${base}/keys?keys.sort=label&keys.dir=desc`);
    expect(labelsOn(desc.text)[0]).toBe('k24');

    const csv = await c.agent.get(`${base}/keys?csv=keys&keys.sort=label&keys.dir=asc`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${TEST_ORG}-keys.csv"`);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('Id,Starts with,Label,Scopes,State,Created,Expires,Last used');
    expect(lines).toHaveLength(28);
    expect(lines[3]).toContain(',k00,"read, write",active,');

    // Every page's tables offer their CSV.
    for (const [url, id] of [
      [`${base}`, 'projects'],
      [`${base}/audit`, 'audit'],
      [`${base}/projects/${TEST_PROJECT}`, 'exports'],
      [`${base}/projects/${TEST_PROJECT}`, 'agent'],
      [`${base}/projects/${TEST_PROJECT}/analytics`, 'terms'],
      [`${base}/projects/${TEST_PROJECT}/analytics`, 'gaps'],
      [`${base}/projects/${TEST_PROJECT}/analytics`, 'days'],
    ] as const) {
      const page = await c.page(url);
      expect(page.text, url).toContain(`csv=${id}`);
      const r = await c.agent.get(`${url}?csv=${id}`);
      expect(r.status, `${url} ${id}`).toBe(200);
      expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    }
  });

  test('search analytics: searches per day, top terms, click-through and no-result terms as server-drawn SVG, CSV safe for spreadsheets', async () => {
    a = createTestAppliance();
    const now = a.clock.now().getTime();
    const today = Math.floor(now / DAY) * DAY;
    const ev = (type: 'search' | 'click', query: string, atMs: number, extra: { resultCount?: number; path?: string } = {}) => ({ type, projectId: TEST_PROJECT, query, sessionId: `s${Math.floor(atMs / DAY)}`, atMs, ...extra });
    await importEvents(a, [
      ev('search', 'install', today - 2 * DAY + 1000, { resultCount: 3 }),
      ev('click', 'install', today - 2 * DAY + 2000, { path: '/install' }),
      ev('search', 'install', today - DAY + 1000, { resultCount: 3 }),
      ev('search', 'install', today + 1000, { resultCount: 3 }),
      ev('search', 'kubernetes operator', today + 2000, { resultCount: 0 }),
      ev('search', '=HYPERLINK("http://x")', today + 3000, { resultCount: 0 }),
    ]);
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    const page = await c.page(`${base}/projects/${TEST_PROJECT}/analytics?days=7`);
    expect(page.status).toBe(200);
    for (const id of ['chart-searches', 'chart-ctr', 'chart-terms', 'chart-gaps']) expect(page.text).toMatch(new RegExp(`<svg class="chart" id="${id}"[^>]*role="img"`));
    expect(page.text).toContain('<title id="chart-searches-t">Searches per day, last 7 days</title>');
    // install: 3 searches, one followed by a click.
    expect(page.text).toContain('<td>install</td>');
    expect(page.text).toMatch(/<td>install<\/td>\s*<td class="num">3<\/td>\s*<td class="num">33\.33<\/td>/);
    expect(page.text).toContain('<td>kubernetes operator</td>');
    // Reader input is escaped in the SVG and the tables.
    expect(page.text).not.toContain('("http://x")');
    expect(page.text).toContain('=hyperlink(&#34;http://x&#34;)');
    const days = await c.agent.get(`${base}/projects/${TEST_PROJECT}/analytics?days=7&csv=days&days.sort=day&days.dir=asc`);
    expect(days.text.trim().split('\r\n').slice(-3).map((l) => l.split(',').slice(1).join(','))).toEqual(['1,100', '1,0', '3,0']);
    const gaps = await c.agent.get(`${base}/projects/${TEST_PROJECT}/analytics?days=7&csv=gaps`);
    expect(gaps.text).toContain(`"'=hyperlink(""http://x"")"`);
    // Reader analytics are wired in (app/features.ts): their charts are drawn from the page-view and feedback rollups.
    expect(page.text).not.toContain('Reader analytics are not available on this appliance.');
    expect(page.text).toContain('Page views by people per day');
    expect(page.text).toContain('Pages rated not helpful per day');
    // No page view was recorded here: each reader series says so instead of drawing an empty chart.
    expect(page.text).not.toContain('id="reader-views-human"');
    expect(page.text.match(/Nothing recorded in this range\./g)).toHaveLength(5);
    // The search charts count whole searches: no fractional tick.
    const searchChart = /<svg class="chart" id="chart-searches".*?<\/svg>/s.exec(page.text)![0];
    expect([...searchChart.matchAll(/class="tick"[^>]*text-anchor="end">([^<]+)</g)].map((m) => m[1]!).every((t) => /^\d+$/.test(t))).toBe(true);
  });

  test('the project page: publish section backed by the publish service, agent jobs with transcript and pull request', async () => {
    a = createTestAppliance();
    a.ctx.stores.agentJobs.create({ id: 'aj_1', projectId: TEST_PROJECT, orgId: TEST_ORG, repository: 'https://git.internal/docs.git', ref: 'agent/fix', model: 'm', prompt: 'Fix <b>typos</b>', title: 'Fix <b>typos</b>' });
    a.ctx.stores.agentJobs.claimNext();
    a.ctx.stores.agentJobs.appendMessage('aj_1', 1, 'assistant', { role: 'assistant', content: 'Done.', tool_calls: [{ function: { name: 'write_file', arguments: '{"path":"a.mdx"}' } }] });
    a.ctx.stores.agentJobs.complete('aj_1', 'https://git.internal/docs/pulls/7');
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    const page = await c.page(`${base}/projects/${TEST_PROJECT}`);
    // The publish service is wired in (app/features.ts): a write key sees "Publish now".
    expect(page.text).not.toContain('Publishing is not available on this appliance.');
    expect(page.text).toContain(`action="${base}/projects/${TEST_PROJECT}/publish"`);
    expect(page.text).toContain('Fix &lt;b&gt;typos&lt;/b&gt;');
    expect(page.text).toContain('<a href="https://git.internal/docs/pulls/7">');
    expect(page.text).toContain('aria-label="Archive aj_1"');
    const job = await c.page(`${base}/projects/${TEST_PROJECT}/agent/aj_1`);
    expect(job.status).toBe(200);
    expect(job.text).toContain('→ write_file({&#34;path&#34;:&#34;a.mdx&#34;})');
    expect(job.text).toContain('Done.');
    expect((await c.page(`${base}/projects/${TEST_PROJECT}/agent/aj_unknown`)).status).toBe(404);

  });

  test('an export started in the console runs to completion; its progress is polled and its bundle link is signed', async () => {
    a = createTestAppliance();
    await a.start();
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    await c.page(`${base}/projects/${TEST_PROJECT}`);
    expect((await c.post(`${base}/projects/${TEST_PROJECT}/exports`)).status).toBe(303);
    let last: { jobId: string; status: string; progress: number } | undefined;
    for (let i = 0; i < 600; i++) {
      const r = await c.agent.get(`${base}/projects/${TEST_PROJECT}/exports.json`).expect(200);
      last = r.body.jobs[0];
      if (last && (last.status === 'completed' || last.status === 'failed')) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(last).toMatchObject({ status: 'completed', progress: 100 });
    const page = await c.page(`${base}/projects/${TEST_PROJECT}`);
    expect(page.text).toContain(`aria-label="Download ${last!.jobId}"`);
    const link = await c.post(`${base}/projects/${TEST_PROJECT}/exports/${last!.jobId}/bundle`);
    expect(link.status).toBe(303);
    expect(link.headers.location).toMatch(new RegExp(`^/v1/static-export/jobs/${last!.jobId}/bundle\\.tar\\.gz\\?expires=\\d+&kid=[0-9a-f]+&signature=`));
    const bundle = await c.agent.get(link.headers.location!);
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toContain('gzip');
  }, 120_000);
});
