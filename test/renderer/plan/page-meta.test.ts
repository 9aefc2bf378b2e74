import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
});
