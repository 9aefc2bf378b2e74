/**
 * The retrieval stage (issue 21): an export writes `<path>.md` per page, llms.txt, llms-full.txt
 * and the section index in the same pass as the HTML.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { LEGACY_RETRIEVAL_INDEX_PATH, RETRIEVAL_INDEX_PATH } from '../../../renderer/retrieval/types.js';
import { parseSectionIndex } from '../../../renderer/retrieval/section-index.js';
import { buildLlmsTxt, MAX_LLMS_TXT_CHARS } from '../../../renderer/retrieval/llms.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/assistant-docs');
const text = (r: ExportResult, p: string) => new TextDecoder().decode(r.files.get(p));

describe('retrieval stage', () => {
  let result: ExportResult;
  beforeAll(async () => {
    result = await exportSite({ pool: sharedRenderPool(), sourceDir: FIXTURE, domain: 'docs.widget.test' });
  }, 120_000);

  it('writes a Markdown version of every page: title, description, body without frontmatter or imports', () => {
    const md = text(result, 'index.md');
    expect(md.startsWith('# Introduction\n\n> What the Widget appliance is and who it is for.\n\n')).toBe(true);
    expect(md).not.toMatch(/^---|import \{ Thing \}/m);
    // Visibility: the humans-only part is dropped, the agents-only part kept without its wrapper.
    expect(md).not.toContain('big green button');
    expect(md).toContain('Agents: start with the install page.');
    expect(md).not.toContain('<Visibility');
    expect(text(result, 'install.md')).toContain('## System requirements\n\nThe appliance needs 4 GB of memory');
    expect(text(result, 'fr/install.md')).toContain('8 Go de mémoire');
  });

  it('lists the default language in navigation order in llms.txt, linking the .md files', () => {
    const llms = text(result, 'llms.txt');
    expect(llms.startsWith('# Widget Docs\n\n> Everything about running the Widget appliance.\n\n')).toBe(true);
    const links = [...llms.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)/gm)].map((m) => m[2]);
    expect(links).toEqual(['index', 'install', 'configuration', 'billing', 'troubleshooting', 'notes'].map((s) => `https://docs.widget.test/${s}.md`));
    expect(llms).toContain('- [Billing](https://docs.widget.test/billing.md): Invoices, payment and refunds.');
  });

  it('puts every listed page whole into llms-full.txt with its source URL', () => {
    const full = text(result, 'llms-full.txt');
    expect(full).toContain('# Troubleshooting\nSource: https://docs.widget.test/troubleshooting\n\nError codes and what to do about them.\n\n## Error E4021');
    expect(full).toContain('Refunds are processed within 5 business days');
    expect(full).not.toContain('8 Go');
  });

  it('indexes sections with heading, anchor, path, text and language', () => {
    const index = parseSectionIndex(text(result, RETRIEVAL_INDEX_PATH))!;
    const refunds = index.sections.find((s) => s.heading === 'Refunds');
    expect(refunds).toMatchObject({ path: 'billing', url: '/billing/#refunds', title: 'Billing', language: 'en' });
    expect(refunds?.text).toBe('Refunds are processed within 5 business days after the request is approved.');
    expect(index.sections.find((s) => s.path === 'fr/install')).toMatchObject({ language: 'fr', heading: 'Configuration requise' });
    // The manifest lists the new files like any other, so a loaded bundle verifies them.
    expect(result.manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(['llms.txt', 'llms-full.txt', 'billing.md', RETRIEVAL_INDEX_PATH]));
  });

  it('splits a long section into several passages under its heading, losing no text', async () => {
    const words = Array.from({ length: 1500 }, (_, i) => `word${i}`).join(' ');
    const sourceDir = tempSite({ 'docs.json': JSON.stringify({ name: 'X', navigation: { groups: [{ group: 'G', pages: ['index'] }] } }), 'index.mdx': `---\ntitle: Home\n---\n\n## Long\n\n${words}\n` });
    const r = await exportSite({ pool: sharedRenderPool(), sourceDir });
    const sections = parseSectionIndex(text(r, RETRIEVAL_INDEX_PATH))!.sections.filter((s) => s.heading === 'Long');
    expect(sections.length).toBeGreaterThan(1);
    for (const s of sections) expect(s.text.length).toBeLessThanOrEqual(2_400);
    expect(sections.map((s) => s.text).join(' ')).toBe(words);
  }, 60_000);

  it('writes the same retrieval files to a zip and to a directory as to memory (pieces joined in plan order)', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'retrieval-out-'));
    try {
      const zipped = await exportSite({ pool: sharedRenderPool(), sourceDir: FIXTURE, domain: 'docs.widget.test', outZip: path.join(out, 'site.zip'), batchSize: 2 });
      const dir = await exportSite({ pool: sharedRenderPool(), sourceDir: FIXTURE, domain: 'docs.widget.test', outDir: path.join(out, 'dir'), batchSize: 3 });
      const entries = unzipSync(fs.readFileSync(path.join(out, 'site.zip')));
      const files = ['llms.txt', 'llms-full.txt', RETRIEVAL_INDEX_PATH, 'index.md', 'fr/install.md'];
      for (const file of files) {
        const expected = text(result, file);
        expect(new TextDecoder().decode(entries[file]), file).toBe(expected);
        expect(fs.readFileSync(path.join(out, 'dir', file), 'utf8'), file).toBe(expected);
        // The result's file view still reads them once the stage's own directory is gone.
        expect(text(zipped, file), file).toBe(expected);
        expect(text(dir, file), file).toBe(expected);
        const listed = zipped.manifest.files.find((f) => f.path === file);
        expect(listed?.size, file).toBe(Buffer.byteLength(expected));
      }
      expect(Object.keys(entries)).not.toContain(LEGACY_RETRIEVAL_INDEX_PATH);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  it('keeps llms.txt under 100,000 characters, dropping descriptions then entries with a note', () => {
    const pages = Array.from({ length: 3000 }, (_, i) => ({ slug: `p/${i}`, title: `Page ${i}`, description: 'd'.repeat(200) }));
    const out = buildLlmsTxt({ name: 'Big', origin: 'https://big.test' }, pages);
    expect(out.length).toBeLessThanOrEqual(MAX_LLMS_TXT_CHARS);
    expect(out).not.toContain('ddd');
    expect(out).toMatch(/> \d+ more pages are left out of this file/);
    // As many entries as fit: one more (with its note) would not.
    const kept = out.match(/^- \[/gm)?.length ?? 0;
    const omitted = Number(/> (\d+) more pages/.exec(out)?.[1]);
    expect(kept + omitted).toBe(3000);
    const next = `- [Page ${kept}](https://big.test/p/${kept}.md)\n`;
    const longer = out.replace(/\n> \d+ more pages are/, `${next}\n> ${omitted - 1} more pages are`);
    expect(longer.length).toBeGreaterThan(MAX_LLMS_TXT_CHARS);
  });

  it('builds llms.txt for 100,000 pages without re-summing it per dropped entry', () => {
    const pages = Array.from({ length: 100_000 }, (_, i) => ({ slug: `p/${i}`, title: `Page ${i}` }));
    const out = buildLlmsTxt({ name: 'Huge', origin: '' }, pages);
    expect(out.length).toBeLessThanOrEqual(MAX_LLMS_TXT_CHARS);
    expect(out).toMatch(/> 9\d{4} more pages are left out/);
  });
});
