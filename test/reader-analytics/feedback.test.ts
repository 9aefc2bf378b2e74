import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import { postEvents } from '../analytics/helpers.js';
import { BROWSER_UA, readerAppliance } from './helpers.js';

const opened: TestAppliance[] = [];
afterEach(async () => {
  for (const a of opened.splice(0)) await a.close();
});

const feedbackUrl = (q = '') => `/v1/analytics/${TEST_PROJECT}/feedback${q}`;
const byPageUrl = (q = '') => `/v1/analytics/${TEST_PROJECT}/feedback/by-page${q}`;
const send = (app: TestAppliance, body: unknown) => postEvents(app, body, { ip: '203.0.113.3' }).set('User-Agent', BROWSER_UA).expect(202);

/** A config file naming the test appliance's state dir, for the CLI (which works on the state dir). */
function cliConfigFor(app: TestAppliance): string {
  const file = path.join(app.stateDir, 'cli-config.json');
  fs.writeFileSync(file, JSON.stringify({
    stateDir: app.stateDir,
    organizations: [{ id: TEST_ORG, name: 'Test', plan: 'enterprise' }],
    projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: 'docs.test.internal', sourceDir: app.stateDir }],
  }));
  return file;
}

describe('page feedback', () => {
  it('completes a vote with its comment under the same id (one entry, not two) and reports it per source and page', async () => {
    const { app, clock } = readerAppliance(opened);
    const key = app.createKey();
    await send(app, { type: 'feedback', path: '/guides/install', feedbackId: 'vote1', source: 'thumbs_only', helpful: false });
    clock.advance(20_000);
    await send(app, { type: 'feedback', path: '/guides/install/', feedbackId: 'vote1', source: 'contextual', helpful: false, reason: 'Update this documentation', comment: 'Step 3 fails on RHEL 9' });
    await send(app, { type: 'feedback', path: '/', feedbackId: 'vote2', source: 'thumbs_only', helpful: true });
    await send(app, { type: 'feedback', path: '/guides/install', feedbackId: 'code1', source: 'code_snippet', comment: 'flag is --yes', code: 'dnf install docs', lang: 'bash', filename: 'install.sh' });
    const all = (await app.api(key).get(feedbackUrl()).expect(200)).body;
    expect(all.hasMore).toBe(false);
    expect(all.nextCursor).toBeNull();
    expect(all.feedback).toEqual([
      { id: 'code1', path: '/guides/install', comment: 'flag is --yes', createdAt: '2026-11-10T09:00:20.000Z', source: 'code_snippet', status: 'pending', code: 'dnf install docs', filename: 'install.sh', lang: 'bash' },
      { id: 'vote2', path: '/', comment: null, createdAt: '2026-11-10T09:00:20.000Z', source: 'thumbs_only', status: 'pending', helpful: true },
      { id: 'vote1', path: '/guides/install', comment: 'Update this documentation\n\nStep 3 fails on RHEL 9', createdAt: '2026-11-10T09:00:00.000Z', source: 'contextual', status: 'pending', helpful: false, contact: null },
    ]);
    const contextual = (await app.api(key).get(feedbackUrl('?source=contextual')).expect(200)).body;
    expect(contextual.feedback.map((f: { id: string }) => f.id)).toEqual(['vote1']);
    const byPage = (await app.api(key).get(byPageUrl()).expect(200)).body;
    expect(byPage).toEqual({
      feedback: [
        { path: '/guides/install', thumbsUp: 0, thumbsDown: 1, code: 1, total: 2 },
        { path: '/', thumbsUp: 1, thumbsDown: 0, code: 0, total: 1 },
      ],
      hasMore: false,
    });
    expect((await app.api(key).get(byPageUrl('?limit=1')).expect(200)).body.hasMore).toBe(true);
    // dateTo is exclusive.
    const early = (await app.api(key).get(feedbackUrl('?dateFrom=2026-11-10T09:00:00Z&dateTo=2026-11-10T09:00:20Z')).expect(200)).body;
    expect(early.feedback.map((f: { id: string }) => f.id)).toEqual(['vote1']);
  });

  it('pages with a cursor, newest first, and refuses bad filters', async () => {
    const { app, clock } = readerAppliance(opened);
    const key = app.createKey();
    for (let i = 0; i < 5; i++) {
      await send(app, { type: 'feedback', path: `/p${i}`, feedbackId: `f${i}`, source: 'thumbs_only', helpful: i % 2 === 0 });
      clock.advance(1000);
    }
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const body: { feedback: { id: string }[]; nextCursor: string | null; hasMore: boolean } = (await app.api(key).get(feedbackUrl(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).expect(200)).body;
      ids.push(...body.feedback.map((f) => f.id));
      expect(body.hasMore).toBe(body.nextCursor !== null);
      cursor = body.nextCursor;
    } while (cursor);
    expect(ids).toEqual(['f4', 'f3', 'f2', 'f1', 'f0']);
    const bad = await app.api(key).get(feedbackUrl('?source=email&status=open,pending&limit=101&cursor=***')).expect(400);
    expect(bad.body.details.map((d: { message: string }) => d.message)).toEqual([
      expect.stringMatching(/^source:/),
      expect.stringMatching(/^status: .*unknown: open/),
      expect.stringMatching(/^limit: must be an integer from 1 to 100/),
      expect.stringMatching(/^cursor:/),
    ]);
    await app.api(key).get(byPageUrl('?limit=0')).expect(400);
  });

  it('changes statuses with the CLI on the state directory; status filters follow', async () => {
    const { app } = readerAppliance(opened);
    const key = app.createKey();
    await send(app, { type: 'feedback', path: '/a', feedbackId: 'one', source: 'contextual', helpful: false, comment: 'wrong port' });
    await send(app, { type: 'feedback', path: '/b', feedbackId: 'two', source: 'thumbs_only', helpful: false });
    await app.api(key).get(feedbackUrl()).expect(200); // writes the beacons
    const config = cliConfigFor(app);
    const set = await runCli(['feedback', 'set-status', TEST_PROJECT, 'one', 'in_progress', '--config', config, '--json']);
    expect(set).toMatchObject({ code: 0, out: `${JSON.stringify({ id: 'one', status: 'in_progress' })}\n` });
    expect((await runCli(['feedback', 'set-status', TEST_PROJECT, 'two', 'dismissed', '--config', config])).code).toBe(0);
    expect((await runCli(['feedback', 'set-status', TEST_PROJECT, 'nope', 'resolved', '--config', config])).code).toBe(1);
    expect((await runCli(['feedback', 'set-status', TEST_PROJECT, 'one', 'done', '--config', config])).code).not.toBe(0);
    const listed = await runCli(['feedback', 'list', TEST_PROJECT, '--status', 'in_progress', '--config', config, '--json']);
    expect(JSON.parse(listed.out).map((f: { id: string; comment: string }) => [f.id, f.comment])).toEqual([['one', 'wrong port']]);

    const open = (await app.api(key).get(feedbackUrl('?status=pending,in_progress')).expect(200)).body;
    expect(open.feedback.map((f: { id: string; status: string }) => [f.id, f.status])).toEqual([['one', 'in_progress']]);
    const dismissed = (await app.api(key).get(byPageUrl('?status=dismissed')).expect(200)).body;
    expect(dismissed.feedback).toEqual([{ path: '/b', thumbsUp: 0, thumbsDown: 1, code: 0, total: 1 }]);
  });

  it('shares the organization’s hourly limit with the search report', async () => {
    const { app } = readerAppliance(opened, { analytics: { rateLimitPerHour: 4 } });
    const key = app.createKey();
    await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/searches`).expect(200);
    await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/views`).expect(200);
    await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/visitors`).expect(200);
    const last = await app.api(key).get(feedbackUrl()).expect(200);
    expect(last.headers['ratelimit-remaining']).toBe('0');
    const limited = await app.api(app.createKey()).get(byPageUrl()).expect(429);
    expect(limited.body).toEqual({ error: expect.any(String), details: expect.any(Array) });
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
