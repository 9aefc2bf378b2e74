import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAssistantKeyStore } from '../../app/assistant/keys-store.js';
import type { PublishFeature } from '../../app/publish/feature.js';
import { createTestAppliance, TEST_ORG, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';

const A = '666666666666666666666666';
const B = '777777777777777777777777';
let t: TestAppliance | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** With several projects published, the discovery API answers from the site of the project its `{domain}` names. */
describe('the assistant with one site per project', { timeout: 120_000 }, () => {
  it('reads each project’s own published site, not the first one served', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'assistant-sites-'));
    dirs.push(root);
    const a = writeTinyDocs(path.join(root, 'a'));
    const b = writeTinyDocs(path.join(root, 'b'));
    fs.writeFileSync(path.join(a, 'index.mdx'), '---\ntitle: Home\n---\n\nAlpha docs talk about aardvarks.\n');
    fs.writeFileSync(path.join(b, 'index.mdx'), '---\ntitle: Home\n---\n\nBeta docs talk about bumblebees.\n');
    t = createTestAppliance({
      config: {
        renderer: { threads: 1 },
        projects: [
          { id: A, orgId: TEST_ORG, name: 'Alpha', domain: 'alpha.docs.internal', sourceDir: a },
          { id: B, orgId: TEST_ORG, name: 'Beta', domain: 'beta.docs.internal', sourceDir: b },
        ],
      },
    });
    await t.start();
    const service = (t.features.find((f) => f.name === 'publish') as PublishFeature).service;
    service.publish(A, 'api');
    service.publish(B, 'api');
    await service.idle();
    const keys = createAssistantKeyStore(t.ctx.db, () => new Date());
    const keyB = keys.create({ projectId: B }).key;
    const page = await t.api(keyB).post('/discovery/v1/page/beta.docs.internal').send({ path: 'index' }).expect(200);
    expect(JSON.stringify(page.body)).toContain('bumblebees');
    expect(JSON.stringify(page.body)).not.toContain('aardvarks');
    const keyA = keys.create({ projectId: A }).key;
    const other = await t.api(keyA).post('/discovery/v1/page/alpha').send({ path: 'index' }).expect(200);
    expect(JSON.stringify(other.body)).toContain('aardvarks');
  });
});
