import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishFeature } from '../../app/publish/feature.js';
import type { ConfigInput } from '../../config/schema.js';
import { createTestAppliance, TEST_ORG, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { BROWSER_UA, GPTBOT_UA, readersOf } from './helpers.js';

/*
 * Issue 20: Mintlify's own switches stop all collection for their site, not only the page's
 * scripts. Three projects published on one appliance, answered by Host: the site listener's count
 * of AI agents and the beacon endpoint follow each bundle's switch (its manifest.json).
 */
const OFF = '888888888888888888888888';
const ON = '999999999999999999999999';
const MINT = '777777777777777777777777';
const OFF_HOST = 'quiet.docs.internal';
const ON_HOST = 'counted.docs.internal';
const MINT_HOST = 'legacy.docs.internal';
let t: TestAppliance | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function publishSites(config: Partial<ConfigInput> = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-switches-'));
  dirs.push(root);
  const off = writeTinyDocs(path.join(root, 'off'));
  const on = writeTinyDocs(path.join(root, 'on'));
  const docsJson = JSON.parse(fs.readFileSync(path.join(off, 'docs.json'), 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(path.join(off, 'docs.json'), JSON.stringify({ ...docsJson, integrations: { telemetry: { enabled: false } } }));
  // Legacy mint.json without feedback.thumbsRating: page views yes, feedback no.
  const mint = writeTinyDocs(path.join(root, 'mint'));
  fs.rmSync(path.join(mint, 'docs.json'));
  fs.writeFileSync(path.join(mint, 'mint.json'), JSON.stringify({ name: 'Legacy', colors: { primary: '#0d9373' }, navigation: [{ group: 'Start', pages: ['index', 'guides/intro'] }] }));
  t = createTestAppliance({
    config: {
      renderer: { threads: 1 },
      admin: { trustProxy: true },
      projects: [
        { id: OFF, orgId: TEST_ORG, name: 'Quiet', domain: OFF_HOST, sourceDir: off },
        { id: ON, orgId: TEST_ORG, name: 'Counted', domain: ON_HOST, sourceDir: on },
        { id: MINT, orgId: TEST_ORG, name: 'Legacy', domain: MINT_HOST, sourceDir: mint },
      ],
      ...config,
    },
  });
  await t.start();
  const service = (t.features.find((f) => f.name === 'publish') as PublishFeature).service;
  service.publish(OFF, 'api');
  service.publish(ON, 'api');
  service.publish(MINT, 'api');
  await service.idle();
  return t;
}

const get = (app: TestAppliance, host: string, pathName: string, ua: string) => supertest(app.site).get(pathName).set('Host', host).set('User-Agent', ua).set('X-Forwarded-For', '192.0.2.40');
const beacon = (app: TestAppliance, host: string, events: unknown[]) =>
  supertest(app.site).post('/_/events').set('Host', host).set('Content-Type', 'application/json').set('User-Agent', BROWSER_UA).set('X-Forwarded-For', '203.0.113.9').send(JSON.stringify(events));
const totals = async (app: TestAppliance, key: string, project: string) => (await app.api(key).get(`/v1/analytics/${project}/views`).expect(200)).body.totals;

describe('Mintlify’s switches stop collection on the appliance too', { timeout: 120_000 }, () => {
  it('docs.json telemetry off: an AI agent’s page and .md requests are not counted, nor beacons; the other site still counts', async () => {
    const app = await publishSites();
    const key = app.createKey();
    // The exporter writes the switch into the bundle; the page carries no beacon script.
    const home = await get(app, OFF_HOST, '/', BROWSER_UA).expect(200);
    expect(home.text).not.toMatch(/page-view\.[0-9a-f]+\.js/);
    expect((await get(app, ON_HOST, '/', BROWSER_UA).expect(200)).text).toMatch(/page-view\.[0-9a-f]+\.js/);

    for (const host of [OFF_HOST, ON_HOST]) {
      await get(app, host, '/guides/intro', GPTBOT_UA).expect(200);
      const md = await get(app, host, '/guides/intro.md', GPTBOT_UA).expect(200);
      expect(md.headers['content-type']).toMatch(/^text\/markdown/);
    }
    // A beacon (a stale page, or forged) for the quiet site is answered but not kept.
    const quiet = await beacon(app, OFF_HOST, [
      { type: 'pageview', path: '/', viewId: 'q1' },
      { type: 'feedback', path: '/', feedbackId: 'qf1', source: 'thumbs_only', helpful: true },
      { type: 'feedback', path: '/', feedbackId: 'qf2', source: 'code_snippet', comment: 'x', code: 'npm i' },
    ]).expect(202);
    expect(quiet.body.collecting).toBe(false);
    const loud = await beacon(app, ON_HOST, [
      { type: 'pageview', path: '/', viewId: 'c1' },
      { type: 'feedback', path: '/', feedbackId: 'cf1', source: 'thumbs_only', helpful: true },
    ]).expect(202);
    expect(loud.body.collecting).toBe(true);
    readersOf(app).flush();

    expect(await totals(app, key, OFF)).toEqual({ human: 0, ai: 0, total: 0 });
    expect((await app.api(key).get(`/v1/analytics/${OFF}/feedback`).expect(200)).body.feedback).toEqual([]);
    expect(await totals(app, key, ON)).toEqual({ human: 1, ai: 2, total: 3 });
    expect((await app.api(key).get(`/v1/analytics/${ON}/feedback`).expect(200)).body.feedback).toHaveLength(1);
    const metrics = (await supertest(app.admin).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/docs_appliance_reader_events_total\{outcome="ignored"\} 5\n/);
  });

  it('legacy mint.json: page views (an AI agent’s too) are counted, feedback it never offered is not kept', async () => {
    const app = await publishSites();
    const key = app.createKey();
    await get(app, MINT_HOST, '/guides/intro.md', GPTBOT_UA).expect(200);
    const res = await beacon(app, MINT_HOST, [
      { type: 'pageview', path: '/', viewId: 'm1' },
      { type: 'feedback', path: '/', feedbackId: 'mf1', source: 'thumbs_only', helpful: false },
      { type: 'feedback', path: '/', feedbackId: 'mf2', source: 'code_snippet', comment: 'x', code: 'npm i' },
    ]).expect(202);
    expect(res.body.collecting).toBe(true);
    readersOf(app).flush();
    expect(await totals(app, key, MINT)).toEqual({ human: 1, ai: 1, total: 2 });
    expect((await app.api(key).get(`/v1/analytics/${MINT}/feedback`).expect(200)).body.feedback).toEqual([]);
  });

  it('the appliance switch (analytics.readers.enabled false) stops the AI count of every site', async () => {
    const app = await publishSites({ analytics: { readers: { enabled: false } } });
    const key = app.createKey();
    await get(app, ON_HOST, '/guides/intro', GPTBOT_UA).expect(200);
    await get(app, ON_HOST, '/guides/intro.md', GPTBOT_UA).expect(200);
    expect((await beacon(app, ON_HOST, [{ type: 'pageview', path: '/', viewId: 'c1' }]).expect(202)).body.collecting).toBe(false);
    readersOf(app).flush();
    expect(await totals(app, key, ON)).toEqual({ human: 0, ai: 0, total: 0 });
  });
});
