import { describe, expect, it } from 'vitest';
import { ANONYMOUS, EVERYTHING } from '../../renderer/access/contract.js';
import { stripBundle } from '../../renderer/access/strip-bundle.js';
import { manifestFor, sha256 } from '../loader/helpers/bundle.js';
import { accessSite, ADMIN_SECRET, PARTNER_SECRET } from './helpers.js';

const bundle = () => {
  const { files, access } = accessSite();
  const map = new Map<string, Uint8Array>(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)]));
  map.set('manifest.json', Buffer.from(manifestFor(files, 'v1', { access })));
  return map;
};
const text = (m: Map<string, Uint8Array>) => [...m.values()].map((b) => Buffer.from(b).toString()).join('\n');

describe('stripBundle', () => {
  it('keeps only what an anonymous reader may see, filters marked files and rewrites the manifest', () => {
    const { files, dropped } = stripBundle(bundle(), ANONYMOUS);
    expect(dropped.sort()).toEqual(['_assets/images/admin.0123abcd.png', 'admin/runbook.html', 'admin/runbook.md', 'partner.html', 'partner.md']);
    expect(text(files)).not.toContain(ADMIN_SECRET);
    expect(text(files)).not.toContain(PARTNER_SECRET);
    expect(text(files)).not.toContain('<!--da:');
    const manifest = JSON.parse(Buffer.from(files.get('manifest.json')!).toString());
    expect(manifest.access).toBeUndefined();
    expect(manifest.files.map((f: { path: string }) => f.path).sort()).toEqual([...files.keys()].filter((k) => k !== 'manifest.json').sort());
    for (const f of manifest.files) expect(f.sha256, f.path).toBe(sha256(Buffer.from(files.get(f.path)!)));
    expect(manifest.pageCount).toBe(JSON.parse(Buffer.from(bundle().get('manifest.json')!).toString()).pageCount - 2);
  });

  it('with EVERYTHING keeps every file, strips the markers and drops access', () => {
    const { files, dropped } = stripBundle(bundle(), EVERYTHING);
    expect(dropped).toEqual([]);
    expect(files.size).toBe(bundle().size);
    expect(text(files)).toContain(ADMIN_SECRET);
    expect(text(files)).not.toContain('<!--da:');
    expect(Buffer.from(files.get('guides/intro.html')!).toString()).toContain('Admin runbook');
    expect(JSON.parse(Buffer.from(files.get('manifest.json')!).toString()).access).toBeUndefined();
  });

  it('leaves a bundle without access as it is', () => {
    const { files } = accessSite();
    const map = new Map<string, Uint8Array>(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)]));
    map.set('manifest.json', Buffer.from(manifestFor(files, 'v1')));
    const out = stripBundle(map, ANONYMOUS);
    expect(out.dropped).toEqual([]);
    expect([...out.files.entries()]).toEqual([...map.entries()]);
  });
});
