/**
 * The assistant reads the section index of the bundle it serves: format 2 (NDJSON, written in
 * pieces by the export) and format 1 (one JSON document) of bundles exported before it, which a
 * published site's kept versions may still be.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { siteRetrieval } from '../../app/assistant/retrieval.js';
import { createLogger } from '../../app/logger.js';
import { createRetrievalHost } from '../../app/retrieval/host.js';
import { sectionIndexHeader, sectionLine } from '../../renderer/retrieval/section-index.js';
import { LEGACY_RETRIEVAL_INDEX_PATH, RETRIEVAL_INDEX_PATH, type RetrievalSection } from '../../renderer/retrieval/types.js';

const roots: string[] = [];
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'section-index-state-'));
const host = createRetrievalHost({ stateDir, log: createLogger('silent') });
afterAll(async () => {
  await host.close();
  for (const r of [...roots, stateDir]) fs.rmSync(r, { recursive: true, force: true });
});
const loadSiteRetrieval = (root: string) => siteRetrieval(root, host);

function bundle(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'section-index-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

const refunds: RetrievalSection = { path: 'billing', url: '/billing/#refunds', title: 'Billing', heading: 'Refunds', text: 'Refunds take five business days.', language: 'en' };
const install: RetrievalSection = { path: 'install', url: '/install/', title: 'Install', heading: 'Install', text: 'Run the container with a data volume.' };

describe('section index formats', () => {
  it('reads format 2 and skips a line that is not a section', async () => {
    const r = loadSiteRetrieval(bundle({ [RETRIEVAL_INDEX_PATH]: `${sectionIndexHeader('Widget Docs')}${sectionLine(refunds)}{"broken":true}\nnot json\n${sectionLine(install)}` }));
    expect(await r.info()).toMatchObject({ name: 'Widget Docs', sectionCount: 2, defaultLanguage: 'en' });
    expect(await r.sectionRange(0, 10)).toEqual([refunds, install]);
    expect((await r.search('refunds business days', { limit: 3 }))[0]).toMatchObject({ url: '/billing/#refunds', score: 1 });
  });

  it('reads format 1 from a bundle made before format 2', async () => {
    const r = loadSiteRetrieval(bundle({ [LEGACY_RETRIEVAL_INDEX_PATH]: JSON.stringify({ format: 1, name: 'Old Docs', sections: [install, { nope: 1 }] }) }));
    expect((await r.info()).name).toBe('Old Docs');
    expect(await r.sectionRange(0, 10)).toEqual([install]);
  });

  it('finds nothing in a bundle without an index, or with an index of an unknown format', async () => {
    expect((await loadSiteRetrieval(bundle({ 'index.html': '<p>hi</p>' })).info()).sectionCount).toBe(0);
    const future = loadSiteRetrieval(bundle({ [RETRIEVAL_INDEX_PATH]: `{"format":3,"name":"X"}\n${sectionLine(install)}` }));
    expect(await future.info()).toMatchObject({ sectionCount: 0, name: 'Documentation' });
    expect(await future.search('container', { limit: 3 })).toEqual([]);
  });
});
