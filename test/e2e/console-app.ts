import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../../app/clock.js';
import { importNdjson } from '../../app/analytics/import.js';
import { createSearchEventStore } from '../../data/stores/search-events.js';
import { createTestAppliance, TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import type { Clock } from '../../app/clock.js';
import type { PublishFeature } from '../../app/publish/feature.js';
import type { PublishRecord } from '../../app/publish/index.js';
import fs from 'node:fs';
import path from 'node:path';

type TestAppliance = ReturnType<typeof createTestAppliance<Clock>>;

export interface ConsoleApp {
  t: TestAppliance;
  /** An admin key of the test organization with both scopes. */
  key: string;
  /** The two publishes of the test project (oldest first); the second is served. */
  publishes: PublishRecord[];
  origin: string;
  close(): Promise<void>;
}

const DAY = 86_400_000;

/**
 * A started appliance (export queue running) whose admin listener is on a loopback port, with two
 * publishes of the test project (through the hosted update operation and the publish service's
 * lane), a fortnight of search events and a finished agent job, so every console page has
 * something to show.
 */
export async function serveConsole(): Promise<ConsoleApp> {
  const t = createTestAppliance<Clock>({ clock: systemClock });
  await t.start();
  const key = t.createKey(TEST_ORG);
  const service = (t.features.find((f) => f.name === 'publish') as PublishFeature).service;
  const publishes: PublishRecord[] = [];
  for (const text of ['Welcome to the tiny docs.', 'The second edition of the tiny docs.']) {
    fs.writeFileSync(path.join(t.sourceDir, 'index.mdx'), `---\ntitle: Home\n---\n\n${text}\n`);
    const started = await t.api(key).post(`/v1/project/update/${TEST_PROJECT}`).expect(202);
    await service.idle();
    const record = service.status((started.body as { statusId: string }).statusId)!;
    if (record.status !== 'success') throw new Error(`seed publish failed: ${record.summary}`);
    publishes.push(record);
  }
  await seedAnalytics(t);
  t.ctx.stores.agentJobs.create({ id: 'aj_e2e', projectId: TEST_PROJECT, orgId: TEST_ORG, repository: 'https://git.internal/docs.git', ref: 'agent/typos', model: 'local', prompt: 'Fix the typos in the quickstart', title: 'Fix the typos in the quickstart' });
  t.ctx.stores.agentJobs.claimNext();
  t.ctx.stores.agentJobs.appendMessage('aj_e2e', 1, 'assistant', { role: 'assistant', content: 'Fixed three typos and opened a pull request.' });
  t.ctx.stores.agentJobs.complete('aj_e2e', 'https://git.internal/docs/pulls/12');
  const server = http.createServer(t.admin);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    t,
    key,
    publishes,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
      await t.close();
    },
  };
}

async function seedAnalytics(t: TestAppliance): Promise<void> {
  const terms = ['install', 'kubernetes', 'air-gapped', 'static export', 'api keys', 'sso', 'backup', 'helm chart'];
  const now = Date.now();
  const lines: string[] = [];
  for (let d = 13; d >= 0; d--) {
    const day = now - d * DAY;
    const count = 6 + ((d * 7) % 9);
    for (let i = 0; i < count; i++) {
      const query = terms[(i * 3 + d) % terms.length]!;
      const at = day - i * 60_000;
      const sessionId = `s${d}-${i}`;
      const noResult = query === 'helm chart' || query === 'backup';
      lines.push(JSON.stringify({ type: 'search', projectId: TEST_PROJECT, query, sessionId, timestamp: new Date(at).toISOString(), resultCount: noResult ? 0 : 4 }));
      if (!noResult && i % 2 === 0) lines.push(JSON.stringify({ type: 'click', projectId: TEST_PROJECT, query, sessionId, timestamp: new Date(at + 5000).toISOString(), path: '/quickstart' }));
    }
  }
  const file = path.join(t.stateDir, 'seed.ndjson');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const rejected: string[] = [];
  await importNdjson(file, {
    store: createSearchEventStore(t.ctx.db),
    knownProjects: [TEST_PROJECT],
    onRejected: (line, message) => rejected.push(`${line}: ${message}`),
    now: () => Date.now(),
  });
  if (rejected.length) throw new Error(`seed events rejected: ${rejected.slice(0, 3).join('; ')}`);
}
