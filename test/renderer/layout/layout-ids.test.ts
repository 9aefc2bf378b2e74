/**
 * The layout's own ids (renderer/layout/ids.ts) are never a heading's: a page's `## Content` would
 * otherwise be a second `id="content"` beside the layout's `<main>`, and its table-of-contents link
 * would land at the top of the page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYOUT_IDS } from '../../../renderer/layout/ids.js';
import { render } from '../page/helpers.js';

const templates = path.resolve(import.meta.dirname, '../../../renderer/layout/templates');
const scripts = path.resolve(import.meta.dirname, '../../../renderer/assets/client');

describe('layout ids', () => {
  it('lists every id the templates write and every fixed id the site\'s scripts add', () => {
    const written = new Set<string>();
    for (const file of fs.readdirSync(templates)) {
      for (const m of fs.readFileSync(path.join(templates, file), 'utf8').matchAll(/\bid="([a-z][a-z0-9-]*)"/g)) written.add(m[1] as string);
    }
    for (const file of fs.readdirSync(scripts).filter((f) => f.endsWith('.js'))) {
      const source = fs.readFileSync(path.join(scripts, file), 'utf8');
      for (const m of source.matchAll(/\bid: '([a-z][a-z0-9-]*[a-z0-9])'|\.id = '([a-z][a-z0-9-]*[a-z0-9])'/g)) written.add((m[1] ?? m[2]) as string);
    }
    expect([...written].sort()).toEqual([...LAYOUT_IDS].sort());
  });

  it('gives a heading whose slug is one of them the next free id, in the page and in its toc', () => {
    const page = render('## Content\n\nA.\n\n## Sidebar\n\nB.\n\n### Search results\n\nC.\n\n## Content\n\nD.\n');
    const ids = [...page.html.matchAll(/\bid="([^"]*)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['content-2', 'sidebar-2', 'search-results-2', 'content-3']);
    expect(page.toc.map((t) => t.id)).toEqual(['content-2', 'sidebar-2', 'search-results-2', 'content-3']);
    for (const id of ids) expect(LAYOUT_IDS).not.toContain(id);
  });

  it('leaves an id the author wrote as written', () => {
    const page = render('## Main part {#content}\n\nA.\n');
    expect(page.html).toMatch(/<h2[^>]*\bid="content"/);
  });
});
