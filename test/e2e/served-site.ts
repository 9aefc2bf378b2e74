import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { exportSite } from '../../renderer/index.js';
import { exampleDocsDir } from '../../app/paths.js';
import { createTestAppliance, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

export interface ServedSite {
  t: TestAppliance;
  key: string;
  origin: string;
  close(): Promise<void>;
}

/**
 * The bundled example docs, exported by the real pipeline, loaded by the real loader from a
 * bundle file and served by the appliance's site listener on a loopback port.
 */
export async function serveExampleSite(): Promise<ServedSite> {
  const probe = createTestAppliance();
  const zip = path.join(probe.stateDir, 'example.zip');
  await exportSite({ pool: sharedRenderPool(), sourceDir: exampleDocsDir(), outZip: zip, projectId: TEST_PROJECT, domain: 'docs.test.internal', version: 'e2e' });
  const t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl: zip, version: 'e2e' }, site: { exampleOnFirstStart: false } } });
  await t.start();
  const site = t.features.find((f) => f.name === 'site')!;
  const deadline = Date.now() + 30_000;
  while (!site.ready?.().ok) {
    if (Date.now() > deadline) throw new Error(`site not ready: ${site.ready?.().detail}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const server = http.createServer(t.site);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    t,
    key: t.createKey(),
    origin,
    async close() {
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
      await t.close();
      await probe.close();
    },
  };
}
