/**
 * Mintlify's components inside a running component say their words in the page's language, as the
 * static renderer writes them in MDX (i18n/content-strings.ts): pre-rendered in the sandbox with
 * the page's words, and in the browser from the language's words script after the runtime. English
 * pages get no such script (English is the runtime's own).
 */
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { sandboxRuntimeSource } from '../../../renderer/islands/runtime.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';

// State: the component runs in the browser too (a static one is only pre-rendered).
const JSX = `export const Words = () => {
  const [n] = useState(0);
  return (
  <div className="all" data-n={n}>
    <Note>Note body</Note>
    <Warning>Warning body</Warning>
    <Expandable><p>Expandable body</p></Expandable>
    <ParamField path="userId" type="string" required deprecated default="x"><p>Param body</p></ParamField>
  </div>
  );
};
`;
const MDX_SAME = '<div className="all" data-n="0">\n<Note>Note body</Note>\n<Warning>Warning body</Warning>\n<Expandable><p>Expandable body</p></Expandable>\n<ParamField path="userId" type="string" required deprecated default="x"><p>Param body</p></ParamField>\n</div>\n';
const island = `---\ntitle: Words\n---\nimport { Words } from '/snippets/words.jsx';\n\n<Words />\n`;

let result: ExportResult;
beforeAll(async () => {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({
      name: 'Words',
      navigation: {
        languages: [
          { language: 'de', groups: [{ group: 'Start', pages: ['de/island', 'de/mdx'] }] },
          { language: 'en', groups: [{ group: 'Start', pages: ['en/island'] }] },
        ],
      },
    }),
    'snippets/words.jsx': JSX,
    'de/island.mdx': island,
    'de/mdx.mdx': `---\ntitle: Words\n---\n${MDX_SAME}`,
    'en/island.mdx': island,
  };
  result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
}, 60_000);

const decoder = new TextDecoder();
const page = (p: string): string => {
  const bytes = result.files.get(p);
  if (!bytes) throw new Error(`no ${p}`);
  return decoder.decode(bytes);
};
const all = (html: string): string => html.slice(html.search(/<div[^>]*class="all"/));
const scripts = (html: string): string[] => [...html.matchAll(/<script src="\/(_static\/islands\/[^"]+)"/g)].map((m) => m[1] as string);

describe('the words of Mintlify components in running components', () => {
  it('pre-renders them in the page language, as MDX writes them', () => {
    const de = all(page('de/island/index.html'));
    for (const w of ['aria-label="Hinweis"', 'aria-label="Warnung"', 'data-hide="Ausblenden"', '>Anzeigen<', '>Eigenschaften<', '>erforderlich<', '>veraltet<', 'Standard: ']) expect(de, w).toContain(w);
    const mdx = all(page('de/mdx/index.html'));
    for (const w of ['aria-label="Hinweis"', 'data-hide="Ausblenden"', '>erforderlich<', 'Standard: ']) expect(mdx, w).toContain(w);
    expect(all(page('en/island/index.html'))).toContain('aria-label="Note"');
  });

  it('gives the browser the language\'s words in a script after the runtime, none for English', () => {
    const de = scripts(page('de/island/index.html'));
    expect(de[0]).toMatch(/^_static\/islands\/runtime\./);
    expect(de[1]).toMatch(/^_static\/islands\/words\.[0-9a-f]{10}\.js$/);
    expect(decoder.decode(result.files.get(de[1]!))).toContain('"note":"Hinweis"');
    expect(scripts(page('en/island/index.html')).some((s) => s.includes('/words.'))).toBe(false);
  });

  it('renders with those words where the page loads its scripts in order (the browser path)', () => {
    const list = scripts(page('de/island/index.html'));
    const context = vm.createContext({});
    vm.runInContext(sandboxRuntimeSource(), context);
    for (const s of list.slice(1)) vm.runInContext(decoder.decode(result.files.get(s)!), context);
    const key = /data-island="([^"]+)"/.exec(page('de/island/index.html'))![1]!.replace(/&quot;/g, '"');
    // No words argument: what the words script set is used, as in the browser.
    const out = JSON.parse(vm.runInContext(`__mintIslands.renderToString(${JSON.stringify(key)}, '{}', '{}', '{}', '')`, context) as string) as { html: string };
    expect(out.html).toContain('aria-label="Hinweis"');
  });
});
