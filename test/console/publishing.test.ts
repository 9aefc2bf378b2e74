import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestAppliance, OTHER_ORG, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import type { UpdateStatusBody } from '../publish/helpers.js';
import { consoleClient, formAction, publishFromConsole, publishServiceOf } from './helpers.js';

let a: TestAppliance | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

const overview = `/console/orgs/${TEST_ORG}`;
const base = `${overview}/projects/${TEST_PROJECT}`;
const site = (t: TestAppliance) => supertest(t.site).get('/').set('Host', 'docs.test.internal');
const edit = (t: TestAppliance, text: string) => fs.writeFileSync(path.join(t.sourceDir, 'index.mdx'), `---\ntitle: Home\n---\n\n${text}\n`);
const rollBackLabel = (id: string) => `Roll back to ${id}`;

/** The overview's row of the test project: served version, since when, from where. */
function servedCells(html: string): string[] {
  const row = /<tr>\s*<td><a href="[^"]+">Test docs<\/a><\/td>(.*?)<\/tr>/s.exec(html);
  if (!row) throw new Error('no row for Test docs on the overview');
  // A time cell counts as its exact time (the datetime attribute); its text is relative ("5 min ago").
  return [...row[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((m) => m[1]!.replace(/<time datetime="([^"]+)"[^>]*>.*?<\/time>/, '$1').replace(/<[^>]+>/g, '').trim()).slice(2, 5);
}

/**
 * The console's publish section and overview on the real publish service (app/console/publish-adapter.ts):
 * every publish here is the service's lane (export of the project's directory, verification, activation).
 */
describe('console publishing through the publish service', { timeout: 120_000 }, () => {
  test('"Roll back" is offered for each earlier version still kept, pressing it serves that version, and the overview shows what is served', async () => {
    // Two kept versions: the third publish prunes the one served least recently.
    a = createTestAppliance({ config: { renderer: { threads: 1 }, staticExport: { keepVersions: 2 } } });
    await a.start();
    const t = a;
    const service = publishServiceOf(t);
    const key = t.createKey(TEST_ORG);
    const c = consoleClient(t.admin);
    await c.signIn(key);
    const status = async (id: string) => (await t.api(key).get(`/v1/project/update-status/${id}`).expect(200)).body as UpdateStatusBody;

    // Nothing published: nothing served, nothing to roll back to.
    expect(servedCells((await c.page(overview)).text)).toEqual(['—', '—', '—']);
    expect((await c.page(base)).text).toContain('Nothing published yet.');

    const first = await publishFromConsole(c, t, base);
    expect(first).toMatchObject({ kind: 'publish', trigger: 'console', status: 'success' });
    expect((await site(t).expect(200)).text).toContain('Welcome to the tiny docs');
    // The API shows the same record in the same words (one vocabulary: data/stores/publishes.ts).
    expect(await status(first.id)).toMatchObject({ status: 'success', kind: 'publish', trigger: 'console', source: 'dashboard', version: first.version });
    const page1 = await c.page(base);
    expect(page1.text).toContain(`<code>${first.id}</code>`);
    expect(formAction(page1.text, rollBackLabel(first.id))).toBeUndefined();

    // The overview: the published version, activated when the publish ran (the test's clock stands still in between).
    const publishedAt = t.clock.now().toISOString();
    const home1 = (await c.page(overview)).text;
    expect(servedCells(home1)).toEqual([first.version, publishedAt, 'published']);
    expect(first.endedAt).toBe(publishedAt);
    expect(home1).toContain(`Test docs: version <code>${first.version}</code>, served since <time datetime="${publishedAt}" title="${publishedAt.slice(0, 19).replace('T', ' ')} UTC">just now</time>`);
    t.clock.advance(10 * 60_000); // within the session's idle time

    edit(t, 'The second edition.');
    const second = await publishFromConsole(c, t, base);
    expect((await site(t).expect(200)).text).toContain('The second edition');
    const page2 = await c.page(base);
    expect(formAction(page2.text, rollBackLabel(first.id))).toBe(`${base}/publishes/${first.id}/rollback`);
    expect(formAction(page2.text, rollBackLabel(second.id))).toBeUndefined();
    expect(page2.text).toContain(`aria-label="${rollBackLabel(first.id)}">Roll back</button>`);
    expect(servedCells((await c.page(overview)).text)).toEqual([second.version, t.clock.now().toISOString(), 'published']);
    t.clock.advance(10 * 60_000); // within the session's idle time

    // Pressing the button (the page's form and CSRF token) rolls back through the service.
    const pressed = await c.press(base, rollBackLabel(first.id));
    expect(pressed.status).toBe(303);
    expect(pressed.headers.location).toBe(`${base}?notice=rolled-back`);
    await service.idle();
    const rollback = service.history(TEST_PROJECT, 1)[0]!;
    expect(rollback).toMatchObject({ kind: 'rollback', trigger: 'console', status: 'success', version: first.version });
    expect(await status(rollback.id)).toMatchObject({ status: 'success', kind: 'rollback', source: 'dashboard' });
    expect((await site(t).expect(200)).text).toContain('Welcome to the tiny docs');
    const page3 = await c.page(`${base}?notice=rolled-back`);
    expect(page3.text).toContain('<p class="notice" role="status">Roll-back started.</p>');
    // Only the console's own notices are shown, whatever the query names.
    for (const notice of ['constructor', 'toString', 'nope']) expect((await c.page(`${base}?notice=${notice}`)).text).not.toContain('role="status"');
    expect(formAction(page3.text, rollBackLabel(second.id))).toBe(`${base}/publishes/${second.id}/rollback`);
    for (const id of [first.id, rollback.id]) expect(formAction(page3.text, rollBackLabel(id))).toBeUndefined();
    // The overview follows: the first version again, since the rollback activated it.
    const rolledBackAt = t.clock.now().toISOString();
    expect(rollback.endedAt).toBe(rolledBackAt);
    const home3 = (await c.page(overview)).text;
    expect(servedCells(home3)).toEqual([first.version, rolledBackAt, 'published']);
    expect(home3).toContain(`Test docs: version <code>${first.version}</code>, served since <time datetime="${rolledBackAt}"`);

    // A third publish keeps two versions: it and the first (served last); the second is pruned,
    // so it is no longer offered, and asking for it anyway is refused with the service's reason.
    edit(t, 'The third edition.');
    const third = await publishFromConsole(c, t, base);
    const page4 = await c.page(base);
    expect(formAction(page4.text, rollBackLabel(first.id))).toBeDefined();
    expect(formAction(page4.text, rollBackLabel(rollback.id))).toBeDefined();
    expect(formAction(page4.text, rollBackLabel(second.id))).toBeUndefined();
    expect(formAction(page4.text, rollBackLabel(third.id))).toBeUndefined();
    const pruned = await c.post(`${base}/publishes/${second.id}/rollback`);
    expect(pruned.status).toBe(400);
    expect(pruned.text).toContain(`no kept version &#34;${second.version}&#34;`);

    // An id that is not a finished publish of this project names nothing to go back to.
    expect((await c.post(`${base}/publishes/upd_nope/rollback`)).status).toBe(404);
    expect(service.history(TEST_PROJECT, 1)[0]!.id).toBe(third.id);
    // Each change is in the audit log, naming the publish it started.
    const audit = t.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 20, offset: 0 }).map((e) => [e.action, e.target]);
    expect(audit).toEqual(expect.arrayContaining([['publish.start', first.id], ['publish.start', second.id], ['publish.rollback', rollback.id], ['publish.start', third.id]]));
    // Another organization's overview shows none of it.
    const other = consoleClient(t.admin);
    await other.signIn(t.createKey(OTHER_ORG));
    const theirs = (await other.page(`/console/orgs/${OTHER_ORG}`)).text;
    for (const v of [first.version, third.version]) expect(theirs).not.toContain(v);
    expect(theirs).toContain("None of this organization's projects is served by this appliance yet.");
  });

  test('the read role sees the history but no buttons, and cannot publish or roll back', async () => {
    a = createTestAppliance({ config: { renderer: { threads: 1 } } });
    await a.start();
    const writer = consoleClient(a.admin);
    await writer.signIn(a.createKey(TEST_ORG));
    const first = await publishFromConsole(writer, a, base);
    edit(a, 'The second edition.');
    await publishFromConsole(writer, a, base);

    const reader = consoleClient(a.admin);
    await reader.signIn(a.createKey(TEST_ORG, { scopes: ['read'] }));
    const page = await reader.page(base);
    expect(page.text).toContain('Publish history');
    expect(page.text).toContain(`<code>${first.id}</code>`);
    expect(formAction(page.text, 'Publish now')).toBeUndefined();
    expect(formAction(page.text, rollBackLabel(first.id))).toBeUndefined();
    const before = publishServiceOf(a).history(TEST_PROJECT).length;
    expect((await reader.post(`${base}/publish`)).status).toBe(403);
    expect((await reader.post(`${base}/publishes/${first.id}/rollback`)).status).toBe(403);
    expect(publishServiceOf(a).history(TEST_PROJECT)).toHaveLength(before);
  });
});

describe('render warnings on the console', { timeout: 120_000 }, () => {
  test('the project page counts the served version’s warnings by kind and lists each with file:line and a link to its page', async () => {
    a = createTestAppliance({ config: { renderer: { threads: 1 } } });
    await a.start();
    const t = a;
    const c = consoleClient(t.admin);
    await c.signIn(t.createKey(TEST_ORG));
    edit(t, 'Read [the missing page](/missing-page).');
    await publishFromConsole(c, t, base);
    const html = (await c.page(base)).text;
    expect(html).toContain('Render warnings of the served version: 1 broken-link');
    expect(html).toContain('<code>index.mdx:');
    expect(html).toContain('href="https://docs.test.internal/"');
    expect(html).toContain('/missing-page');
  });
});
