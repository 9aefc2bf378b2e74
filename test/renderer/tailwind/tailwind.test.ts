import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import fs from 'node:fs';
import path from 'node:path';
import { collectCandidates, collectScriptClasses } from '../../../renderer/tailwind/candidates.js';
import { compileTailwind } from '../../../renderer/tailwind/compile.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

let pool: RenderPool;
beforeAll(() => {
  pool = sharedRenderPool(2);
});
afterAll(async () => {
  await pool.close();
});

const docsJson = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ name: 'T', colors: { primary: '#112233', light: '#445566' }, navigation: { pages: ['index', 'other'] }, ...extra });

const PAIR_PAGE = [
  '---',
  'title: Home',
  '---',
  '',
  '<Frame>',
  '  <img src="/light.png" className="block dark:hidden" alt="light" />',
  '  <img src="/dark.png" className="hidden dark:block" alt="dark" />',
  '</Frame>',
  '',
  '<div className="group lg:flex w-[37px] bg-[#ff0000] hover:text-primary dark:text-primary-light">',
  '  <span className="group-hover:opacity-50 rotate-45">x</span>',
  '</div>',
  '',
].join('\n');

async function exportOf(files: Record<string, string>): Promise<ExportResult> {
  return exportSite({ sourceDir: tempSite(files), pool, createdAt: new Date(0) });
}
const text = (r: ExportResult, p: string): string => new TextDecoder().decode(r.files.get(p));
const tailwindPath = (r: ExportResult): string | undefined => [...r.files.keys()].find((p) => /^_static\/tailwind\.[0-9a-f]{10}\.css$/.test(p));

/** Each rule of the stylesheet: selector → declarations (media queries kept in the selector). */
function rules(css: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /\s*(@media[^{]+)\{|\s*([^{}\s][^{}]*)\{([^}]*)\}|\}/g;
  let media = '';
  for (const m of css.matchAll(re)) {
    if (m[1]) media = m[1].trim() + ' ';
    else if (m[2] !== undefined) out.set(media + m[2].trim().replace(/\s+/g, ' '), (m[3] ?? '').trim().replace(/\s+/g, ' '));
    else media = '';
  }
  return out;
}

describe('Tailwind utilities at export time', () => {
  let site: ExportResult;
  let css: string;
  beforeAll(async () => {
    site = await exportOf({ 'docs.json': docsJson(), 'index.mdx': PAIR_PAGE, 'other.mdx': '# Other\n\nNo classes.\n', 'light.png': 'l', 'dark.png': 'd' });
    css = text(site, tailwindPath(site) ?? '');
  });

  it('writes one content-named stylesheet, in the manifest, linked after the theme on every page', () => {
    const file = tailwindPath(site);
    expect(file).toBeDefined();
    expect(site.manifest.files.map((f) => f.path)).toContain(file);
    for (const page of ['index.html', 'other/index.html', '404.html']) {
      const links = [...text(site, page).matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
      expect(links.indexOf(`/${file}`), page).toBeGreaterThan(links.findIndex((l) => l?.includes('components.')));
    }
    expect(site.warnings.filter((w) => w.code.startsWith('tailwind'))).toEqual([]);
  });

  it('maps dark: onto the theme\'s data-theme="dark" toggle, so one image of each pair shows per theme', () => {
    const r = rules(css);
    const scope = ':is(#page-content,.examples-panel-inner)';
    expect(r.get(`${scope} .block`)).toBe('display: block');
    expect(r.get(`${scope} .hidden`)).toBe('display: none');
    expect(r.get(`${scope} .dark\\:hidden:where([data-theme="dark"], [data-theme="dark"] *)`)).toBe('display: none');
    expect(r.get(`${scope} .dark\\:block:where([data-theme="dark"], [data-theme="dark"] *)`)).toBe('display: block');
    // The dark rules come after the plain ones: same specificity, so the later one wins in dark mode.
    expect(css.indexOf('.dark\\:hidden')).toBeGreaterThan(css.indexOf(' .block'));
    expect(text(site, 'index.html')).toContain('class="block dark:hidden"');
  });

  it('generates arbitrary values, responsive and state variants, and the brand palette', () => {
    const r = rules(css);
    const scope = ':is(#page-content,.examples-panel-inner)';
    expect(r.get(`${scope} .w-\\[37px\\]`)).toBe('width: 37px');
    expect(r.get(`${scope} .bg-\\[\\#ff0000\\]`)).toContain('background-color: rgb(255 0 0');
    expect(r.get(`@media (min-width: 1024px) ${scope} .lg\\:flex`)).toBe('display: flex');
    expect(r.get(`${scope} .hover\\:text-primary:hover`)).toContain('color: rgb(17 34 51');
    expect(r.get(`${scope} :is(.group:hover .group-hover\\:opacity-50)`)).toBe('opacity: 0.5');
    expect(r.get(`${scope} .dark\\:text-primary-light:where([data-theme="dark"], [data-theme="dark"] *)`)).toContain('color: rgb(68 85 102');
  });

  it('has no preflight and no rule outside the content: only --tw-* custom properties are global', () => {
    expect(css).not.toMatch(/box-sizing|margin:\s*0|line-height|font-family|border-style/);
    for (const [selector, body] of rules(css)) {
      if (selector.startsWith(':is(#page-content,.examples-panel-inner) ') || selector.startsWith('@media (min-width: 1024px) :is(#page-content')) continue;
      expect(selector).not.toContain(':where(#page-content');
      expect(['*, ::before, ::after', '::backdrop']).toContain(selector);
      for (const decl of body.split(';').filter((d) => d.trim())) expect(decl.trim()).toMatch(/^--tw-/);
    }
    // rotate-45 reads the --tw-* defaults: they are there.
    expect(css).toContain('--tw-rotate: 0');
  });

  it('gives elements with a border utility the border style preflight would (a bare `border` draws a line), below every utility', async () => {
    const boxed = await exportOf({
      'docs.json': docsJson(),
      'index.mdx': '# Home\n\n<div className="rounded-xl border p-6">Boxed</div>\n\n<div className="border-t-2 border-dashed">Dashed</div>\n',
      'other.mdx': '# Other\n',
    });
    const sheet = text(boxed, tailwindPath(boxed) ?? '');
    const r = rules(sheet);
    const base = ':where(#page-content,.examples-panel-inner) :where([class*="border"])';
    expect(r.get(base)).toBe('border-width: 0; border-style: solid; border-color: #e5e7eb');
    expect(sheet.indexOf(base)).toBeLessThan(sheet.indexOf('.border {'));
    expect(r.get(':is(#page-content,.examples-panel-inner) .border')).toBe('border-width: 1px');
    expect(r.get(':is(#page-content,.examples-panel-inner) .border-dashed')).toBe('border-style: dashed');
  });

  it('names the file after its input: the same sources give the same name, another class another', async () => {
    const files = { 'docs.json': docsJson(), 'index.mdx': PAIR_PAGE, 'other.mdx': '# Other\n', 'light.png': 'l', 'dark.png': 'd' };
    const again = await exportOf(files);
    expect(tailwindPath(again)).toBe(tailwindPath(site));
    const changed = await exportOf({ ...files, 'other.mdx': '# Other\n\n<p className="mt-7">x</p>\n' });
    expect(tailwindPath(changed)).not.toBe(tailwindPath(site));
    expect(text(changed, tailwindPath(changed) ?? '')).toContain('.mt-7');
  });

  it('reads classes from snippet components too, but not the site scripts\' strings that are no class', async () => {
    const r = await exportOf({
      'docs.json': docsJson(),
      'index.mdx': 'import { Hero } from "/snippets/hero.jsx";\n\n<Hero />\n',
      'other.mdx': '# Other\n',
      'snippets/hero.jsx': 'export const Hero = () => {\n  const tone = "text-emerald-600";\n  return <div className={`rounded-xl ${tone}`}>Hi</div>;\n};\n',
      'analytics.js': 'window.x = "underline decoration-wavy";\n',
    });
    const out = text(r, tailwindPath(r) ?? '');
    expect(out).toContain('.rounded-xl');
    expect(out).toContain('.text-emerald-600');
    expect(out).not.toContain('decoration-wavy');
  });

  it('styles the markup a site script inserts anywhere in the page: its class values, page-wide; not its other strings', async () => {
    const banner = [
      '(function () {',
      '  var el = document.createElement("div");',
      '  el.innerHTML = `<div class="flex items-center gap-3 rounded-2xl border p-4"><svg class="size-5 shrink-0"></svg><p class="text-sm font-semibold ${"x"}">New version</p></div>`;',
      '  el.className = "fixed bottom-4";',
      "  el.classList.add('shadow-lg', 'dark:bg-zinc-900');",
      '  window.note = "underline decoration-wavy";',
      '  document.body.prepend(el);',
      '})();',
    ].join('\n');
    const r = await exportOf({ 'docs.json': docsJson(), 'index.mdx': '# Home\n', 'other.mdx': '# Other\n', 'banner.js': banner });
    const file = tailwindPath(r);
    expect(file).toBeDefined();
    expect(text(r, 'index.html')).toContain(`href="/${file}"`);
    const sheet = rules(text(r, file ?? ''));
    expect(sheet.get(':is(body) .size-5')).toBe('width: 1.25rem; height: 1.25rem');
    expect(sheet.get(':is(body) .rounded-2xl')).toBe('border-radius: 1rem');
    expect(sheet.get(':is(body) .gap-3')).toBe('gap: 0.75rem');
    expect(sheet.get(':is(body) .fixed')).toBe('position: fixed');
    expect(sheet.get(':is(body) .border')).toBe('border-width: 1px');
    expect(sheet.get(':where(.border)')).toBe('border-width: 0; border-style: solid; border-color: #e5e7eb');
    expect([...sheet.keys()].some((k) => k.includes('.shadow-lg'))).toBe(true);
    expect([...sheet.keys()].some((k) => k.includes('dark\\:bg-zinc-900'))).toBe(true);
    expect([...sheet.keys()].some((k) => k.includes('decoration-wavy'))).toBe(false);
  });

  it('adds no stylesheet and no link to a site without classes', async () => {
    const r = await exportOf({ 'docs.json': docsJson(), 'index.mdx': '# Home\n\nA page with the word class in it.\n', 'other.mdx': '# Other\n' });
    expect(tailwindPath(r)).toBeUndefined();
    expect(text(r, 'index.html')).not.toContain('tailwind');
  });
});

describe('class candidates', () => {
  it('keep nothing of the files they were read from (the plan holds the set through the export)', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const into = new Set<string>();
    for (let i = 0; i < 50; i++) collectCandidates(`p${i}.mdx`, `<div className="dark:bg-slate-900/50-variant-${i} md:grid-cols-3">x</div>\n${'Words of the page. '.repeat(60_000)}`, into);
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(10_000_000);
    expect(into.has('dark:bg-slate-900/50-variant-7')).toBe(true);
  });

  const of = (file: string, text: string): string[] => {
    const set = new Set<string>();
    collectCandidates(file, text, set);
    return [...set].sort();
  };

  it('takes class and className values, quoted or as expressions, from pages; not prose words', () => {
    const page = [
      'The block is hidden in a table.',
      '<div class="p-4 md:p-8">',
      "<span className='font-bold'>",
      '<img className={"rounded " + (wide ? "w-full" : "w-1/2")} />',
      '<p className={`text-${size} italic`}>',
    ].join('\n');
    expect(of('a.mdx', page)).toEqual(['font-bold', 'italic', 'md:p-8', 'p-4', 'rounded', 'text-', 'w-1/2', 'w-full']);
  });

  it('takes only class values from site scripts: HTML strings, className, classList and setAttribute', () => {
    const set = new Set<string>();
    collectScriptClasses('a.innerHTML="<i class=\\"size-5 m-1\\"></i>";b.className="p-2";c.setAttribute("class","mx-auto");d.classList.toggle("hidden");var t="block table";', set);
    expect([...set].sort()).toEqual(['hidden', 'm-1', 'mx-auto', 'p-2', 'size-5']);
  });

  it('no class name of the theme is a Tailwind utility, so page-wide script utilities cannot restyle the chrome', async () => {
    const dir = path.resolve(import.meta.dirname, '../../../renderer');
    const names = new Set<string>();
    for (const f of fs.readdirSync(path.join(dir, 'assets/client'))) {
      const src = fs.readFileSync(path.join(dir, 'assets/client', f), 'utf8');
      if (f.endsWith('.css')) for (const m of src.matchAll(/\.(-?[a-zA-Z_][\w-]*)/g)) names.add(m[1] as string);
      else collectScriptClasses(src, names);
    }
    for (const f of fs.readdirSync(path.join(dir, 'layout/templates'))) {
      for (const m of fs.readFileSync(path.join(dir, 'layout/templates', f), 'utf8').matchAll(/class="([^"<]*)"/g)) for (const c of (m[1] as string).split(/\s+/)) if (c) names.add(c);
    }
    expect(names.size).toBeGreaterThan(200);
    const css = await compileTailwind({ candidates: [], pageWide: [...names].sort(), colors: { primary: '#112233', light: '#445566', dark: '#112233' } });
    expect([...rules(css).keys()].filter((k) => k.startsWith(':is(body) '))).toEqual([]);
  });

  it('takes every string literal from component scripts', () => {
    expect(of('snippets/x.tsx', 'const a = "flex gap-2"; const b = \'bg-[url(/a.png)]\';')).toEqual(['bg-[url(/a.png)]', 'flex', 'gap-2']);
  });
});
