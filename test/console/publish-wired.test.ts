import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import type { PublishFeature } from '../../app/publish/feature.js';
import { createTestAppliance, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { consoleClient } from './helpers.js';

let a: TestAppliance | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

const site = (t: TestAppliance) => supertest(t.site).get('/').set('Host', 'docs.test.internal');

/** The console's publish section on the real publish service (app/console/publish-adapter.ts), not a stand-in. */
describe('console publishing through the publish service', { timeout: 120_000 }, () => {
  test('"publish now" and "roll back" run in the project lane, are recorded with the console trigger, and a foreign publish id is refused', async () => {
    a = createTestAppliance({ config: { renderer: { threads: 1 } } });
    await a.start();
    const service = (a.features.find((f) => f.name === 'publish') as PublishFeature).service;
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    const base = `/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}`;

    await c.page(base);
    expect((await c.post(`${base}/publish`)).status).toBe(303);
    await service.idle();
    const first = service.history(TEST_PROJECT)[0]!;
    expect(first).toMatchObject({ kind: 'publish', trigger: 'console', status: 'success' });
    expect((await site(a).expect(200)).text).toContain('Welcome to the tiny docs');

    fs.writeFileSync(path.join(a.config.projects[0]!.sourceDir!, 'index.mdx'), '---\ntitle: Home\n---\n\nThe second edition.\n');
    await c.page(base);
    expect((await c.post(`${base}/publish`)).status).toBe(303);
    await service.idle();
    expect((await site(a).expect(200)).text).toContain('The second edition');

    // The page lists both publishes; the older one can be rolled back to.
    const page = await c.page(base);
    expect(page.text).toContain(first.id);
    expect((await c.post(`${base}/publishes/${first.id}/rollback`)).status).toBe(303);
    await service.idle();
    expect(service.history(TEST_PROJECT)[0]).toMatchObject({ kind: 'rollback', trigger: 'console', status: 'success', version: first.version });
    expect((await site(a).expect(200)).text).toContain('Welcome to the tiny docs');

    // An id that is not a finished publish of this project names nothing to go back to.
    await c.page(base);
    expect((await c.post(`${base}/publishes/upd_nope/rollback`)).status).toBe(404);
    // Each change is in the audit log.
    const actions = a.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 10, offset: 0 }).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['publish.start', 'publish.rollback']));
  });
});
