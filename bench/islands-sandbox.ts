/**
 * `node --import tsx bench/islands-sandbox.ts`: what pre-rendering exported components costs and
 * how fast the sandbox stops hostile code. Exports three small sites through a one-thread pool:
 * 40 pages with one island each (cost per island, against the same pages with the components as
 * plain MDX), and a page whose component is a memory bomb of long native operations
 * (`'x'.repeat(1 << 20)` in a loop): time until the export finishes with the island skipped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRenderPool, exportSite } from '../renderer/index.js';

function site(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'islands-bench-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const PAGES = 40;
const card = 'export const Hero = ({ n }) => {\n  const items = [1, 2, 3].map((i) => <li key={i}>{n * i}</li>);\n  return <Card title={`Card ${n}`} icon="rocket"><ul>{items}</ul></Card>;\n};\n';
function pages(island: boolean): Record<string, string> {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: 'Bench', navigation: { groups: [{ group: 'G', pages: Array.from({ length: PAGES }, (_, i) => `p${i}`) }] } }),
    'snippets/hero.jsx': card,
  };
  for (let i = 0; i < PAGES; i++) {
    files[`p${i}.mdx`] = island
      ? `---\ntitle: P${i}\n---\nimport { Hero } from '/snippets/hero.jsx';\n\n<Hero n={${i}} />\n`
      : `---\ntitle: P${i}\n---\n<Card title="Card ${i}" icon="rocket"><ul><li>${i}</li></ul></Card>\n`;
  }
  return files;
}

const bomb = site({
  'docs.json': JSON.stringify({ name: 'Bomb', navigation: { groups: [{ group: 'G', pages: ['index'] }] } }),
  'snippets/bomb.jsx': "export const Bomb = () => {\n  let s = '';\n  for (;;) s = 'x'.repeat(1 << 20) + s.slice(0, 10);\n};\n",
  'index.mdx': "---\ntitle: Bomb\n---\nimport { Bomb } from '/snippets/bomb.jsx';\n\n<Bomb />\n\nAfter the bomb.\n",
});

const pool = createRenderPool({ threads: 1 });
try {
  // Warm the worker (module caches, WebAssembly) so the rows compare rendering only.
  await exportSite({ sourceDir: site(pages(false)), pool });
  const time = async (dir: string): Promise<{ ms: number; warnings: string[] }> => {
    const t = performance.now();
    const r = await exportSite({ sourceDir: dir, pool });
    return { ms: performance.now() - t, warnings: r.warnings.filter((w) => w.code === 'component-prerender').map((w) => w.message) };
  };
  const plain = await time(site(pages(false)));
  const islands = await time(site(pages(true)));
  const islandsAgain = await time(site(pages(true)));
  const stop = await time(bomb);
  const perIsland = (islandsAgain.ms - plain.ms) / PAGES;
  process.stdout.write(
    `${PAGES} pages, plain MDX: ${plain.ms.toFixed(0)} ms\n` +
      `${PAGES} pages, one island each (first export, sandbox created): ${islands.ms.toFixed(0)} ms\n` +
      `${PAGES} pages, one island each (second export): ${islandsAgain.ms.toFixed(0)} ms → ${perIsland.toFixed(1)} ms per island over plain MDX\n` +
      `memory bomb of native operations: export finished after ${stop.ms.toFixed(0)} ms; ${stop.warnings.join(' | ') || 'no warning'}\n`,
  );
} finally {
  await pool.close();
}
