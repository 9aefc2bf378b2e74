import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import JSZip from 'jszip';
import { runExport } from '../../../app/commands/export.js';
import { exportSite, type RenderPool } from '../../../renderer/index.js';
import { ANONYMOUS, markOpen } from '../../../renderer/access/contract.js';
import { filterMarked } from '../../../renderer/access/filter.js';
import type { BundleManifest } from '../../../renderer/types.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';
import { accessSite } from './fixture.js';

/** Reader access beyond the main fixture: tabs of restricted pages, mint.json's public groups, the CLI flag. */

let pool: RenderPool;
const decoder = new TextDecoder();
beforeAll(() => {
  pool = sharedRenderPool(2);
});
afterAll(async () => {
  await pool.close();
});

describe('reader access listings', () => {
  it('wraps a tab whose pages are all restricted, and leaves a tab with a public page bare', async () => {
    const site = tempSite({
      'docs.json': JSON.stringify({
        name: 'Tabs',
        navigation: {
          tabs: [
            { tab: 'Guides', groups: [{ group: 'Open', public: true, pages: ['open'] }] },
            { tab: 'Internal tabsecretxyz', groups: [{ group: 'Runbooks', pages: ['runbook'] }] },
            { tab: 'Admins', groups: [{ group: 'Ops', pages: ['ops'] }] },
          ],
        },
      }),
      'open.mdx': '---\ntitle: Open\n---\n\nopen words\n',
      'runbook.mdx': '---\ntitle: Runbook\n---\n\nrunbook words\n',
      'ops.mdx': '---\ntitle: Ops\ngroups: [ops]\n---\n\nops words\n',
    });
    const r = await exportSite({ sourceDir: site, pool, readerAccess: true });
    const open = decoder.decode(r.files.get('open/index.html'));
    expect(open).toMatch(new RegExp(`${markOpen('signed-in')}<li><a class="tab" href="/runbook/"[^]*?<!--/da-->`));
    expect(open).toContain(`${markOpen('groups:ops')}<li><a class="tab" href="/ops/"`);
    expect(open).not.toContain(`${markOpen('public')}`);
    expect(filterMarked(open, ANONYMOUS)).not.toContain('tabsecretxyz');
    expect(filterMarked(open, ANONYMOUS)).toContain('<a class="tab" href="/open/"');
    expect(r.manifest.access?.files['runbook/index.html']).toBe('signed-in');
  });

  it('reads "public": true on mint.json navigation groups, and full authentication when no page is public', async () => {
    const partial = tempSite({
      'mint.json': JSON.stringify({ name: 'Legacy', navigation: [{ group: 'Start', public: true, pages: ['a'] }, { group: 'Private', pages: ['b'] }] }),
      'a.mdx': '---\ntitle: A\n---\n\na words\n',
      'b.mdx': '---\ntitle: B\n---\n\nb words\n',
    });
    const r = await exportSite({ sourceDir: partial, pool, readerAccess: true });
    expect(r.manifest.access?.defaultRequirement).toBe('public');
    expect(r.manifest.access?.files).toMatchObject({ 'b/index.html': 'signed-in', 'b.md': 'signed-in' });
    expect(r.manifest.access?.files['a/index.html']).toBeUndefined();

    const full = tempSite({
      'docs.json': JSON.stringify({ name: 'Full', navigation: { groups: [{ group: 'All', pages: ['a', 'b'] }] } }),
      'a.mdx': '---\ntitle: A\n---\n\na words\n',
      'b.mdx': '---\ntitle: B\ngroups: [staff]\n---\n\nb words\n',
    });
    const f = await exportSite({ sourceDir: full, pool, readerAccess: true });
    expect(f.manifest.access?.defaultRequirement).toBe('signed-in');
    // Only what differs from the default is listed.
    const files = Object.entries(f.manifest.access?.files ?? {});
    expect(Object.fromEntries(files.filter(([p]) => !p.startsWith('_search/')))).toEqual({ 'b.md': 'groups:staff', 'b/index.html': 'groups:staff' });
    // The staff shard's files; the signed-in shard has the default and is not listed.
    const shards = files.filter(([p]) => p.startsWith('_search/'));
    expect(shards.length).toBeGreaterThan(0);
    expect(shards.every(([p, r]) => r === 'groups:staff' && !p.startsWith('_search/all~signed-in/'))).toBe(true);
    expect(f.manifest.access?.pages).toEqual({ public: 0, signedIn: 1, groups: 1 });
  });

  it('docs-appliance export --reader-access writes the access map; without the flag there is none', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-access-cli-'));
    const io = () => ({ stdout: new PassThrough(), stderr: new PassThrough() });
    const warm = { renderPool: (threads: number | undefined) => sharedRenderPool(threads) };
    const source = accessSite();
    expect(await runExport([source, '--out', path.join(dir, 'on.zip'), '--threads', '1', '--reader-access'], io(), warm)).toBe(0);
    expect(await runExport([source, '--out', path.join(dir, 'off.zip'), '--threads', '1'], io(), warm)).toBe(0);
    const manifest = async (zip: string): Promise<BundleManifest> =>
      JSON.parse(await (await JSZip.loadAsync(fs.readFileSync(path.join(dir, zip)))).file('manifest.json')!.async('string')) as BundleManifest;
    expect((await manifest('on.zip')).access?.files['admin-guide/index.html']).toBe('groups:admin');
    expect((await manifest('off.zip')).access).toBeUndefined();
  });
});

describe('reader access and widened search', () => {
  it('searches the restricted shards of every scope a reader may load, and none an anonymous reader may not', async () => {
    const files: Record<string, string> = {};
    const languages = ['en', 'fr'].map((language) => ({
      language,
      groups: [
        { group: 'Open', public: true, pages: [`${language}/open`] },
        { group: 'Members', pages: [`${language}/members`] },
      ],
    }));
    for (const l of ['en', 'fr']) {
      files[`${l}/open.mdx`] = `---\ntitle: Open ${l}\n---\n\nquokka open ${l}\n`;
      files[`${l}/members.mdx`] = `---\ntitle: Members ${l}\n---\n\nquokka members ${l}\n`;
    }
    files['docs.json'] = JSON.stringify({ name: 'Wide', navigation: { languages } });
    const r = await exportSite({ sourceDir: tempSite(files), pool, readerAccess: true });
    const access = r.manifest.access;
    if (!access) throw new Error('no access map');
    const { canSee } = await import('../../../renderer/access/contract.js');
    const { clientSearch } = await import('../../helpers/search-index.js');
    const view = (v: typeof ANONYMOUS) => ({
      get(p: string) {
        const bytes = r.files.get(p);
        if (!bytes || !canSee(access.files[p] ?? access.defaultRequirement, v)) return undefined;
        return access.marked.includes(p) ? new TextEncoder().encode(filterMarked(decoder.decode(bytes), v)) : bytes;
      },
    });
    const anon = await clientSearch(view(ANONYMOUS), 'en').search('quokka', { wide: true });
    expect(anon.results.map((x) => x.url).sort()).toEqual(['/en/open/', '/fr/open/']);
    const member = { signedIn: true, groups: new Set<string>() };
    const own = await clientSearch(view(member), 'en').search('quokka');
    expect(own.results.map((x) => x.url).sort()).toEqual(['/en/members/', '/en/open/']);
    expect(own.results.every((x) => x.label === undefined)).toBe(true);
    const wide = await clientSearch(view(member), 'en').search('quokka', { wide: true });
    expect(wide.results.map((x) => x.url).sort()).toEqual(['/en/members/', '/en/open/', '/fr/members/', '/fr/open/']);
    // Results of the other language are labelled; the reader's own restricted shard is not "another scope".
    expect(wide.results.filter((x) => x.url.startsWith('/fr/')).every((x) => x.label !== undefined)).toBe(true);
    expect(wide.results.filter((x) => x.url.startsWith('/en/')).every((x) => x.label === undefined)).toBe(true);
  });
});
