/** Optional embeddings (issue 21): sections embedded once per bundle, cached, used for meaning. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteRetrieval } from '../../app/assistant/retrieval.js';
import { createLogger } from '../../app/logger.js';
import { createRetrievalHost } from '../../app/retrieval/host.js';
import type { SiteFeature } from '../../app/site/feature.js';
import { assistantRig, type AssistantRig } from './helpers.js';
import { excerptsOf, readUiStream, startFakeModel } from './fake-model.js';
import { startFakeEmbeddings } from './fake-embeddings.js';

describe('retrieval with embeddings', () => {
  let model: Awaited<ReturnType<typeof startFakeModel>>;
  let embeddings: Awaited<ReturnType<typeof startFakeEmbeddings>>;
  let rig: AssistantRig;
  let cacheDir: string;
  beforeAll(async () => {
    model = await startFakeModel();
    embeddings = await startFakeEmbeddings();
    rig = await assistantRig({ assistant: { baseUrl: model.url, model: 'm', embeddings: { baseUrl: embeddings.url, model: 'fake-embed', batchSize: 4 } } });
    cacheDir = path.join(rig.stateDir(), 'assistant', 'embeddings');
    // A reader's page asking whether the assistant is on starts the embedding of the bundle.
    await fetch(`${rig.siteOrigin}/_/assistant`);
    const deadline = Date.now() + 20_000;
    while (!(fs.existsSync(cacheDir) && fs.readdirSync(cacheDir).some((f) => f.endsWith('.json')))) {
      if (Date.now() > deadline) throw new Error('section embeddings were not written');
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
    await model?.close();
    await embeddings?.close();
  });

  // The served bundle's sections, read through a retrieval thread of the test's own.
  const served = () => {
    const host = createRetrievalHost({ stateDir: rig.stateDir(), log: createLogger('silent') });
    return { host, retrieval: siteRetrieval((rig.t.features.find((f) => f.name === 'site') as SiteFeature).current()!.root, host) };
  };

  it('embeds every section in batches and caches the vectors in the state dir', async () => {
    const { host, retrieval } = served();
    const sections = await retrieval.sectionRange(0, 1000);
    await host.close();
    expect(sections.length).toBeGreaterThan(4);
    const sent = embeddings.inputs.slice(0, Math.ceil(sections.length / 4));
    expect(sent.every((batch) => batch.length <= 4)).toBe(true);
    expect(sent.flat()).toHaveLength(sections.length);
    const cached = JSON.parse(fs.readFileSync(path.join(cacheDir, fs.readdirSync(cacheDir)[0]!), 'utf8')) as { model: string; vectors: string[] };
    expect(cached).toMatchObject({ model: 'fake-embed' });
    expect(cached.vectors).toHaveLength(sections.length);
  });

  it('finds a passage by meaning that keywords alone miss', async () => {
    const question = 'Can I get my money reimbursed?';
    const { host, retrieval } = served();
    expect(await retrieval.search(question, { limit: 5 })).toEqual([]);
    await host.close();
    await readUiStream(
      await fetch(`${rig.siteOrigin}/_/assistant/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: question }] }) }),
    );
    expect(excerptsOf(model.requests.at(-1)!)).toContain('Refunds are processed within 5 business days');
    expect(embeddings.inputs.at(-1)).toEqual([question]);
  });
});
