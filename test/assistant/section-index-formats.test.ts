/**
 * The assistant reads the section index of the bundle it serves: format 2 (NDJSON, written in
 * pieces by the export) and format 1 (one JSON document) of bundles exported before it, which a
 * published site's kept versions may still be.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSiteRetrieval } from '../../app/assistant/retrieval.js';
import { sectionIndexHeader, sectionLine } from '../../renderer/retrieval/section-index.js';
import { LEGACY_RETRIEVAL_INDEX_PATH, RETRIEVAL_INDEX_PATH, type RetrievalSection } from '../../renderer/retrieval/types.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

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
  it('reads format 2 and skips a line that is not a section', () => {
    const r = loadSiteRetrieval(bundle({ [RETRIEVAL_INDEX_PATH]: `${sectionIndexHeader('Widget Docs')}${sectionLine(refunds)}{"broken":true}\nnot json\n${sectionLine(install)}` }));
    expect(r.name).toBe('Widget Docs');
    expect(r.sections).toEqual([refunds, install]);
    expect(r.search('refunds business days', { limit: 3 })[0]).toMatchObject({ url: '/billing/#refunds' });
  });

  it('reads format 1 from a bundle made before format 2', () => {
    const r = loadSiteRetrieval(bundle({ [LEGACY_RETRIEVAL_INDEX_PATH]: JSON.stringify({ format: 1, name: 'Old Docs', sections: [install, { nope: 1 }] }) }));
    expect(r.name).toBe('Old Docs');
    expect(r.sections).toEqual([install]);
  });

  it('finds nothing in a bundle without an index, or with an index of an unknown format', () => {
    expect(loadSiteRetrieval(bundle({ 'index.html': '<p>hi</p>' })).sectionCount).toBe(0);
    const future = loadSiteRetrieval(bundle({ [RETRIEVAL_INDEX_PATH]: `{"format":3,"name":"X"}\n${sectionLine(install)}` }));
    expect(future.sectionCount).toBe(0);
    expect(future.name).toBe('Documentation');
  });
});
