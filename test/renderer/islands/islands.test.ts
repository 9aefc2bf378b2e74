import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { fixtureSite, tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

/**
 * Exported components with code (test/fixtures/sites/islands): compiled into content-hashed
 * modules, written as islands with their sandbox pre-render, loaded only by pages that use them.
 */
let pool: RenderPool;
let result: ExportResult;
const decode = (r: ExportResult, p: string): string => {
  const bytes = r.files.get(p);
  if (!bytes) throw new Error(`no ${p} in the bundle`);
  return new TextDecoder().decode(bytes);
};
const islandScripts = (html: string): string[] => [...html.matchAll(/<script src="\/(_static\/islands\/[^"]+)"/g)].map((m) => m[1] as string);

beforeAll(async () => {
  pool = sharedRenderPool(2);
  result = await exportSite({ sourceDir: fixtureSite('islands'), pool });
});

afterAll(async () => {
  await pool.close();
});

describe('exported components: outside media', () => {
  it('an outside image or frame a component creates becomes the page stand-in, in the pre-render too: nothing loads from outside', async () => {
    const site = tempSite({
      'docs.json': JSON.stringify({ name: 'Outside', navigation: { groups: [{ group: 'G', pages: ['index'] }] } }),
      'snippets/hero.jsx': [
        'export const Hero = ({ title }) => {',
        '  const img = `https://raw.githubusercontent.com/acme/docs/main/${title}.png`;',
        '  return <div className="hero"><img src={img} alt={title} className="block dark:hidden" /><iframe src="//www.youtube.com/embed/x" title="Intro" /><img src="/local.png" alt="local" /></div>;',
        '};',
      ].join('\n'),
      'local.png': 'png',
      'index.mdx': "---\ntitle: Home\n---\n\nimport { Hero } from '/snippets/hero.jsx';\n\n<Hero title=\"rocket\" />\n",
    });
    const out = await exportSite({ sourceDir: site, pool });
    const html = decode(out, 'index.html');
    expect(html).toContain('data-island="snippets/hero.jsx#Hero"');
    expect(html).not.toMatch(/src="(?:https?:)?\/\//);
    expect(html).toMatch(/<span (?=[^>]*class="c-outside c-outside--image block dark:hidden")(?=[^>]*data-outside-host="raw\.githubusercontent\.com")[^>]*>/);
    expect(html).toMatch(/<span (?=[^>]*class="c-outside c-outside--embed")(?=[^>]*data-outside-host="www\.youtube\.com")[^>]*>/);
    expect(html).toContain('Hosted at raw.githubusercontent.com, which this network may not reach.');
    expect(html).toMatch(/<img src="\/[^"]*local[^"]*" alt="local"/);
  });
});

describe('exported components: timers in a component body', () => {
  it('pre-renders a component that schedules work with setTimeout, setInterval or queueMicrotask, as a server render does', async () => {
    // Novu's terminal: `setTimeout(() => loadTerminal(), 1); return <div id="nv-terminal" />` was a
    // component-prerender warning ('setTimeout' is not defined). The callbacks never run in the
    // sandbox (a server render does not wait for them either); the browser runs them.
    const site = tempSite({
      'docs.json': JSON.stringify({ name: 'Timers', navigation: { groups: [{ group: 'G', pages: ['index'] }] } }),
      'snippets/terminal.mdx': [
        'export const Terminal = () => {',
        '  setTimeout(() => { if (typeof document !== "undefined") loadTerminal(); }, 1);',
        '  const id = setInterval(() => {}, 1000); clearInterval(id); clearTimeout(0);',
        '  queueMicrotask(() => {});',
        '  return <div id="nv-terminal" className="nv-terminal">Terminal</div>;',
        '};',
      ].join('\n'),
      'index.mdx': "---\ntitle: Home\n---\n\nimport { Terminal } from '/snippets/terminal.mdx';\n\n<Terminal />\n",
    });
    const out = await exportSite({ sourceDir: site, pool });
    expect(out.warnings.filter((w) => w.code.startsWith('component-'))).toEqual([]);
    expect(decode(out, 'index.html')).toContain('<div id="nv-terminal" class="nv-terminal">Terminal</div>');
  });
});

describe('exported components: the bundle', () => {
  it('writes each use as an island with its props and the HTML pre-rendered in the sandbox', () => {
    const html = decode(result, 'index.html');
    expect(html).toContain('data-island="snippets/counter.jsx#Counter" data-props="{&quot;start&quot;:2,&quot;items&quot;:[&quot;alpha&quot;,&quot;beta&quot;]}"');
    // useState's initial value, the conditional's else branch, .map, a TypeScript snippet imported by the snippet, a Mintlify component.
    expect(html).toContain('<strong class="counter-label">Count: 2</strong>');
    expect(html).toContain('<p class="counter-still">Not clicked yet</p>');
    expect(html).toContain('<ul class="counter-items"><li>alpha</li><li>beta</li></ul>');
    expect(html).toContain('<div class="c-callout__content">Pre-rendered</div>');
    expect(html).toMatch(/style="border-color:gray;padding:8px"/);
    // Children are the renderer's Markdown, kept for the browser in a template.
    expect(html).toContain('<template data-slot="children" data-repeat><p>Children <strong>stay</strong> Markdown.</p>');
    // A component defined in the page itself, with a statement body.
    expect(html).toContain('data-island="index.mdx#Hero"');
    expect(html).toContain('<a href="/other/" class="hero-link">OTHER PAGE</a>');
    expect(result.warnings.filter((w) => w.code.startsWith('component-'))).toEqual([]);
  });

  it('passes props that are code (a call, a component, a function) through a module compiled beside the page, in the pre-render too', () => {
    const html = decode(result, 'code-props/index.html');
    const code = /data-code-props="(code-props\.mdx#props-[0-9a-f]{8})"/.exec(html)?.[1];
    expect(code).toBeDefined();
    // `rows={transports()}` and `Cell={NameCell}` reached the component: no "Invalid rows data".
    expect(html).toContain('<tr><td><code class="name-cell">daily</code></td><td><button type="button" class="pick">1.0.0</button></td></tr>');
    expect(html).not.toContain('table-error');
    expect(result.warnings.filter((w) => w.file === 'code-props.mdx' || w.file === 'snippets/table.jsx')).toEqual([]);
    // The expressions run in the reader's browser (and the sandbox): they are in a shipped module, not evaluated here.
    const scripts = islandScripts(html);
    const propsModule = scripts.map((s) => decode(result, s)).find((text) => text.includes(`__mintIslands.define(${JSON.stringify(code)}`));
    expect(propsModule).toMatch(/"rows": \(_tablejsx\.transports\.call\(/);
    expect(propsModule).toContain('row.name.toUpperCase()');
  });

  it('ships the runtime and the modules, content-hashed, dependencies first, only to pages that use them', () => {
    const scripts = islandScripts(decode(result, 'index.html'));
    expect(scripts[0]).toMatch(/^_static\/islands\/runtime\.[0-9a-f]{10}\.js$/);
    expect(scripts.slice(1)).toEqual([
      // The icons the page's components can show (the <Note>'s theme icon), after the runtime.
      expect.stringMatching(/^_static\/islands\/icons\.[0-9a-f]{10}\.js$/),
      expect.stringMatching(/^_static\/islands\/snippets-label\.[0-9a-f]{10}\.js$/),
      expect.stringMatching(/^_static\/islands\/snippets-counter\.[0-9a-f]{10}\.js$/),
      expect.stringMatching(/^_static\/islands\/index\.[0-9a-f]{10}\.js$/),
    ]);
    for (const s of scripts) expect(result.files.has(s), s).toBe(true);
    expect(islandScripts(decode(result, 'other/index.html'))).toEqual([]);
    const counter = decode(result, scripts[3] as string);
    expect(counter).toContain('__mintIslands.define("snippets/counter.jsx", {"react":"react","./label":"snippets/label.tsx"}');
    // Compiled JSX, no JSX and no TypeScript left; nothing that needs eval.
    expect(counter).not.toMatch(/<button|<\/div>/);
    expect(decode(result, scripts[2] as string)).not.toContain(': Props');
    expect(decode(result, scripts[0] as string)).not.toMatch(/\beval\(|new Function\(/);
    expect(result.manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(scripts));
  });

  it('with component scripts off, writes the pre-render only and ships no script of theirs', async () => {
    const off = await exportSite({ sourceDir: fixtureSite('islands'), pool, componentScripts: false });
    const html = decode(off, 'index.html');
    expect(html).toContain('<strong class="counter-label">Count: 2</strong>');
    expect(html).not.toContain('data-island');
    expect(html).not.toContain('<template');
    expect(islandScripts(html)).toEqual([]);
    expect([...off.files.keys()].filter((f) => f.includes('islands/'))).toEqual([]);
  });
});

describe('exported components: the boundary (repository code never runs in the appliance)', () => {
  let site: string;
  let marker: string;
  let run: ExportResult;
  const SECRET = 'appliance-secret-7f3a9';

  beforeAll(async () => {
    marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'island-marker-')), 'pwned.txt');
    process.env['ISLAND_TEST_SECRET'] = SECRET;
    site = tempSite({
      'docs.json': JSON.stringify({ name: 'Boundary', navigation: { groups: [{ group: 'G', pages: ['index'] }] } }),
      'snippets/evil.jsx': [
        "import fs from 'node:fs';",
        `fs.writeFileSync(${JSON.stringify(marker)}, 'top level ran');`,
        `require('fs').writeFileSync(${JSON.stringify(marker)}, 'require ran');`,
        'export const leaked = process.env.ISLAND_TEST_SECRET;',
        'process.exit(3);',
        '',
        'export const Exit = () => {',
        '  process.exit(4);',
        '  return null;',
        '};',
      ].join('\n'),
      'snippets/env.jsx': ['export const Env = () => {', '  return <p className="env">{process.env.ISLAND_TEST_SECRET}</p>;', '};'].join('\n'),
      'snippets/loops.jsx': [
        'export const Spin = () => {',
        '  while (true) {}',
        '};',
        'export const Hog = () => {',
        '  const hoard = [];',
        '  for (;;) hoard.push(new Uint8Array(1 << 20));',
        '};',
        // One long native operation after another: the interrupt handler is hardly ever reached.
        'export const Bomb = () => {',
        "  let s = '';",
        "  for (;;) s = 'x'.repeat(1 << 20) + s.slice(0, 10);",
        '};',
        'export const Fine = () => {',
        '  return <p className="fine">still rendered</p>;',
        '};',
        // Recursion without end: QuickJS's own stack limit stops it (the thread's larger V8 stack is never reached).
        'export const Deep = () => {',
        '  const down = (n) => down(n + 1) + 1;',
        '  return <p>{down(0)}</p>;',
        '};',
      ].join('\n'),
      'index.mdx': [
        '---',
        'title: Boundary',
        '---',
        "import { Exit } from '/snippets/evil.jsx';",
        "import { Env } from '/snippets/env.jsx';",
        "import { Spin, Hog, Bomb, Fine, Deep } from '/snippets/loops.jsx';",
        '',
        '<Env />',
        '',
        '<Exit />',
        '',
        '<Spin />',
        '',
        '<Hog />',
        '',
        '<Bomb />',
        '',
        '<Deep />',
        '',
        '<Fine />',
        '',
        'The page goes on.',
      ].join('\n'),
    });
    run = await exportSite({ sourceDir: site, pool });
  }, 60_000);

  afterAll(() => {
    delete process.env['ISLAND_TEST_SECRET'];
  });

  it('exports the page: no file written, no variable read, the process alive', () => {
    expect(run.pageCount).toBe(1);
    expect(fs.existsSync(marker)).toBe(false);
    for (const [file, bytes] of run.files) expect(new TextDecoder().decode(bytes), file).not.toContain(SECRET);
    expect(process.exitCode ?? 0).toBe(0);
    const html = decode(run, 'index.html');
    expect(html).toContain('The page goes on.');
    expect(html).toContain('<p class="fine">still rendered</p>');
  });

  it('names each component that could not be pre-rendered, with file and line', () => {
    const pre = run.warnings.filter((w) => w.code === 'component-prerender');
    expect(pre.find((w) => w.file === 'snippets/env.jsx')).toMatchObject({ line: 1, message: expect.stringMatching(/^<Env> could not be pre-rendered \(ReferenceError: 'process' is not defined\)/) });
    // The module's top level fails at its first use of the file system (there is none in the sandbox).
    expect(pre.find((w) => w.file === 'snippets/evil.jsx')?.message).toMatch(/^<Exit> could not be pre-rendered \(TypeError/);
    const about = (line: number): string | undefined => pre.find((w) => w.file === 'snippets/loops.jsx' && w.line === line)?.message;
    expect(about(1)).toMatch(/^<Spin> could not be pre-rendered \(stopped after 500 ms/);
    // Whichever limit comes first: QuickJS's memory cap or the hard wall-clock limit on the thread.
    expect(about(4)).toMatch(/^<Hog> could not be pre-rendered \(stopped: (?:out of memory \(limit 32 MiB\)|no answer within)/);
    // The limit named is the stack's (docs/component-runtime.md), not the memory cap's.
    expect(about(15)).toMatch(/^<Deep> could not be pre-rendered \(stopped: stack overflow \(stack limit 512 KiB\)\)/);
    // Ended at the hard limit (1.5 s + 500 ms for its module), not after the 10-40 s QuickJS needs (bench/islands-sandbox.ts).
    expect(about(8)).toMatch(/^<Bomb> could not be pre-rendered \(stopped: no answer within 2000 ms .*the sandbox thread was ended\)/);
  });

});
