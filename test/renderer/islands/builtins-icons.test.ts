import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeMeta, searchScopesOf } from '../../helpers/search-index.js';
import { exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { fixtureSite, tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

/**
 * Mintlify's components inside a running component render as the same components in MDX, icons
 * included (test/fixtures/sites/islands: builtins.mdx runs snippets/builtins.jsx, builtins-mdx.mdx
 * writes the same JSX as MDX), and the icons a component can show ship with its page.
 */
let pool: RenderPool;
let result: ExportResult;
const decode = (r: ExportResult, p: string): string => {
  const bytes = r.files.get(p);
  if (!bytes) throw new Error(`no ${p} in the bundle`);
  return new TextDecoder().decode(bytes);
};

/** The element that starts at `open`, to its matching close (divs only). */
function divAt(html: string, open: string): string {
  const start = html.indexOf(open);
  if (start < 0) throw new Error(`no ${open}`);
  const re = /<div\b|<\/div>/g;
  re.lastIndex = start;
  let depth = 0;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[0] === '</div>' ? -1 : 1;
    if (depth === 0) return html.slice(start, m.index + 6);
  }
  throw new Error(`unclosed ${open}`);
}

/**
 * The same element tree written two ways: attribute order, `<x/>` and `<x></x>`, `a=""` and `a`,
 * whitespace between tags, and the page-wide counters in tab and tooltip ids do not count.
 */
function tree(html: string): string {
  return html
    .replace(/>\s+</g, '><')
    .replace(/(?:island-)?(tabs|tip)-\d+/g, '$1-N')
    .replace(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*(\/?)>/g, (_m, tag: string, attrs: string, self: string) => {
      const list = [...attrs.matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g)].map((a) => (a[2] === undefined || a[2] === '' ? a[1] : `${a[1]}="${a[2]}"`)).sort();
      return `<${tag}${list.map((a) => ` ${a}`).join('')}>${self ? `</${tag}>` : ''}`;
    })
    .replace(/></g, '>\n<');
}

const iconTable = (r: ExportResult, html: string): Record<string, unknown> => {
  const src = /<script src="\/(_static\/islands\/icons\.[0-9a-f]{10}\.js)"/.exec(html)?.[1];
  if (!src) return {};
  return JSON.parse(decode(r, src).replace(/^__mintIslands\.icons\(/, '').replace(/\);\n$/, '')) as Record<string, unknown>;
};

beforeAll(async () => {
  pool = sharedRenderPool(2);
  result = await exportSite({ sourceDir: fixtureSite('islands'), pool });
});

afterAll(async () => {
  await pool.close();
});

describe('Mintlify components inside running components', () => {
  it('pre-render Card, CardGroup, callouts, Accordion, Expandable, Steps, Tabs, Frame, Badge, Icon, Tooltip, ParamField as MDX renders them, icons included', () => {
    const island = divAt(decode(result, 'builtins/index.html'), '<div class="all">');
    const mdx = divAt(decode(result, 'builtins-mdx/index.html'), '<div class="all">');
    expect(tree(island)).toBe(tree(mdx));
    // Icons are really there (the comparison alone would pass with none on either side).
    for (const name of ['rocket', 'bolt', 'star', 'gear', 'check', 'circle-info', 'triangle-exclamation']) {
      expect(island, name).toMatch(new RegExp(`<svg[^>]*class="icon icon-${name} `));
    }
    expect(result.warnings.filter((w) => w.file === 'snippets/builtins.jsx')).toEqual([]);
  });

  it('ships only the icons the components can show, in a content-hashed script after the runtime', () => {
    const html = decode(result, 'builtins/index.html');
    const scripts = [...html.matchAll(/<script src="\/(_static\/islands\/[^"]+)"/g)].map((m) => m[1]);
    expect(scripts[1]).toMatch(/^_static\/islands\/icons\.[0-9a-f]{10}\.js$/);
    expect(Object.keys(iconTable(result, html)).sort()).toEqual(
      ['bolt', 'check', 'gear', 'rocket', 'star', 'theme:circle-info', 'theme:lightbulb', 'theme:triangle-exclamation'].sort(),
    );
    // No icon font, no outside asset: the table holds the SVG itself.
    expect(decode(result, scripts[1] as string)).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('draws literal, literal-chosen and computed icon names at export time; the icon script holds what the browser may switch to', () => {
    const html = decode(result, 'icons/index.html');
    const first = html.slice(html.indexOf('data-island="snippets/icons.jsx#IconShowcase"'), html.indexOf('<button type="button" class="icon-toggle"'));
    // `<Icon icon="rocket" size={20} color="#ff0000" />`, as the MDX Icon writes it.
    expect(first).toMatch(/<span style="--icon-size:20px;color:#ff0000" class="c-icon-inline"><svg [^>]*class="icon icon-rocket c-icon"/);
    // `icon={ARROWS[dir]}`: the first state's icon; `icon={['fe', 'ather'].join('')}`: asked for by the pre-render.
    expect(first).toMatch(/<span class="icon-arrow"><span class="c-icon-inline"><svg [^>]*class="icon icon-arrow-up c-icon"/);
    expect(first).toMatch(/<span class="icon-computed"><span class="c-icon-inline"><svg [^>]*class="icon icon-feather c-icon"/);
    expect(first).not.toContain('icon-placeholder');
    const table = iconTable(result, html);
    // The other literal the code can pick (for after a click), not the name only a click computes.
    expect(table).toHaveProperty('arrow-down');
    expect(table).toHaveProperty('feather');
    expect(table).not.toHaveProperty('ghost');
    expect(result.warnings.filter((w) => w.file === 'snippets/icons.jsx')).toEqual([]);
  });

  it('follows icons.library and names an unknown icon in a running component with its file and line', async () => {
    const site = tempSite({
      'docs.json': JSON.stringify({ name: 'Lucide', icons: { library: 'lucide' }, navigation: { groups: [{ group: 'G', pages: ['index'] }] } }),
      'snippets/tool.jsx': [
        'export const Tool = ({ label }) => {',
        '  const text = label.toUpperCase();',
        '  return <p className="tool"><Icon icon="rocket" />{text}<Icon icon="no-such-icon-here" /></p>;',
        '};',
      ].join('\n'),
      'index.mdx': "---\ntitle: Home\n---\nimport { Tool } from '/snippets/tool.jsx';\n\n<Tool label=\"go\" />\n\n<Icon icon=\"rocket\" />\n",
    });
    const out = await exportSite({ sourceDir: site, pool });
    const html = decode(out, 'index.html');
    const islandSvg = /<p class="tool"><span class="c-icon-inline">(<svg[^>]*>)/.exec(html)?.[1] ?? '';
    const mdxSvg = /^<span class="c-icon-inline">(<svg[^>]*>)/.exec(html.slice(html.lastIndexOf('<span class="c-icon-inline">')))?.[1] ?? '';
    // Lucide draws with strokes; Font Awesome's rocket would be filled.
    expect(islandSvg).toContain('stroke="currentColor"');
    expect(islandSvg.length).toBeGreaterThan(0);
    expect(tree(islandSvg)).toBe(tree(mdxSvg));
    expect(out.warnings).toContainEqual(
      expect.objectContaining({ code: 'unknown-icon', file: 'snippets/tool.jsx', line: 1, message: expect.stringContaining('"no-such-icon-here" is not a Lucide icon') }),
    );
  });

  it('indexes an island’s children once: the slot that repeats its first paint is not page text', async () => {
    const site = tempSite({
      'docs.json': JSON.stringify({ name: 'Search', navigation: { groups: [{ group: 'G', pages: ['index'] }] } }),
      'snippets/box.jsx': 'export const Box = ({ children }) => {\n  const cls = "box";\n  return <div className={cls}>{children}</div>;\n};\n',
      'index.mdx': "---\ntitle: Home\n---\nimport { Box } from '/snippets/box.jsx';\n\n<Box>\n  Zebrafish appear once.\n</Box>\n",
    });
    const out = await exportSite({ sourceDir: site, pool });
    const html = decode(out, 'index.html');
    expect(html).toMatch(/<div class="box"><mint-html style="display:contents"><p>Zebrafish appear once\.<\/p>\s*<\/mint-html><\/div>/);
    expect(html).toMatch(/<template data-slot="children" data-repeat><p>Zebrafish appear once\.<\/p>\s*<\/template>/);
    // The search index (MiniSearch postings, chunked by term) holds each term's count per field and page: once, not twice.
    const [scope] = searchScopesOf(out.files);
    const meta = scopeMeta(out.files, scope!.key);
    const postings = meta.termFiles.flatMap((f) => JSON.parse(decode(out, `_search/${scope!.key}/${f}`)) as [string, Record<string, Record<string, number>>][]);
    const text = String(meta.fieldIds['text']);
    for (const word of ['zebrafish', 'appear', 'once']) expect(postings.find(([term]) => term === word)?.[1][text], word).toEqual({ '0': 1 });
  });
});
