import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readPageMeta } from '../../../renderer/plan/page-meta.js';

function metaOf(frontmatter: string): ReturnType<typeof readPageMeta> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-meta-'));
  fs.writeFileSync(path.join(dir, 'p.mdx'), `---\n${frontmatter}\n---\n\n# Body\n`);
  return readPageMeta(dir, 'p.mdx');
}

describe('readPageMeta (the plan’s sidebar labels)', () => {
  it('reads plain, double-quoted and single-quoted titles', () => {
    expect(metaOf('title: Plain title')).toEqual({ title: 'Plain title' });
    expect(metaOf('title: "Quoted: with a colon"')).toEqual({ title: 'Quoted: with a colon' });
    expect(metaOf("title: 'Single # not a comment'")).toEqual({ title: 'Single # not a comment' });
  });

  it('hands escapes and trailing comments to the YAML library', () => {
    expect(metaOf('title: "Tab\\tand \\"quote\\""')).toEqual({ title: 'Tab\tand "quote"' });
    expect(metaOf("title: 'It''s here'")).toEqual({ title: "It's here" });
    expect(metaOf('title: "Commented" # note')).toEqual({ title: 'Commented' });
  });

  it('reads sidebarTitle, icon and the method of an api/openapi field', () => {
    expect(metaOf('title: Users\nsidebarTitle: "List"\nicon: user\nopenapi: "openapi.json GET /users"')).toEqual({
      title: 'Users',
      sidebarTitle: 'List',
      icon: 'user',
      method: 'GET',
      openapi: 'openapi.json GET /users',
    });
  });

  it('reads the operation of any openapi form (short spec name, lowercase method) and openapi-schema', () => {
    expect(metaOf('openapi: admin post /keys').method).toBe('POST');
    expect(metaOf('openapi: "WEBHOOK order.updated"').method).toBe('WEBHOOK');
    expect(metaOf('openapi-schema: spec.json Order')).toEqual({ openapiSchema: 'spec.json Order' });
  });

  it('keeps nothing of the page it read: the plan holds every page\'s title until the export ends', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-meta-'));
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(dir, `p${i}.mdx`), `---\ntitle: "A title long enough to be a slice ${i}"\nsidebarTitle: Short but still sliced ${i}\nicon: rocket-launch-icon-name\n---\n\n${'Body text. '.repeat(100_000)}\n`);
    gc();
    const before = process.memoryUsage().heapUsed;
    const metas = Array.from({ length: 50 }, (_, i) => readPageMeta(dir, `p${i}.mdx`));
    gc();
    // Views into the sources would hold 50 pages of 1.1 MB; the copies hold a few KB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(10_000_000);
    expect(metas[7]).toEqual({ title: 'A title long enough to be a slice 7', sidebarTitle: 'Short but still sliced 7', icon: 'rocket-launch-icon-name' });
  });
});
