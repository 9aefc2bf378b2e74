import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ConfigInput } from '../../config/schema.js';
import { exportSite } from '../../renderer/index.js';
import { createTestAppliance, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

export const ASSISTANT_DOCS = path.resolve(import.meta.dirname, '../fixtures/assistant-docs');
export const QUESTIONS = JSON.parse(fs.readFileSync(path.join(ASSISTANT_DOCS, 'questions.json'), 'utf8')) as { question: string; answer: string; page: string }[];

let bundle: Promise<string> | undefined;
/** The fixture docs exported once per test file (by the real pipeline) to a bundle zip. */
export function fixtureBundle(): Promise<string> {
  bundle ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assistant-bundle-'));
    const zip = path.join(dir, 'site.zip');
    await exportSite({ pool: sharedRenderPool(), sourceDir: ASSISTANT_DOCS, outZip: zip, projectId: TEST_PROJECT, domain: 'docs.test.internal', version: 'assistant-v1' });
    return zip;
  })();
  return bundle;
}

async function listen(app: http.RequestListener): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export interface AssistantRig {
  t: TestAppliance;
  siteOrigin: string;
  adminOrigin: string;
  stateDir(): string;
  close(): Promise<void>;
}

/**
 * An appliance serving the fixture bundle (or the `bundle` zip given), its site and admin apps
 * listening on loopback ports.
 */
export async function assistantRig(config: Partial<ConfigInput> = {}, bundle?: string): Promise<AssistantRig> {
  const zip = bundle ?? (await fixtureBundle());
  const t = createTestAppliance({ config: { ...config, staticExport: { enabled: true, bundleUrl: zip, version: 'assistant-v1' }, site: { exampleOnFirstStart: false } } });
  await t.start();
  const site = t.features.find((f) => f.name === 'site')!;
  const deadline = Date.now() + 30_000;
  while (!site.ready?.().ok) {
    if (Date.now() > deadline) throw new Error(`site not ready: ${site.ready?.().detail}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const s = await listen(t.site);
  const a = await listen(t.admin);
  return {
    t,
    siteOrigin: s.origin,
    adminOrigin: a.origin,
    stateDir: () => t.stateDir,
    async close() {
      for (const srv of [s.server, a.server]) {
        srv.closeAllConnections();
        await new Promise((r) => srv.close(r));
      }
      await t.close();
    },
  };
}
