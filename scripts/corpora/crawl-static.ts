/**
 * Serve an exported site directory with `python3 -m http.server` (no rewrite rules) and request
 * every internal link of every page over HTTP, following no redirect: what a reader of an
 * unzipped bundle on a plain static host meets. Prints the number of requests and of misses.
 *   node --import tsx scripts/corpora/crawl-static.ts <outDir>
 */
import fs from 'node:fs';
import path from 'node:path';
import { crawl } from '../../test/helpers/crawl.js';
import { pythonStaticServer } from '../../test/helpers/static-server.js';

async function main(): Promise<void> {
  const root = process.argv[2];
  if (!root) throw new Error('usage: crawl-static <outDir>');
  const server = await pythonStaticServer(root);
  try {
    const origin = server.origin;
    // Every page file is a start, as the URL a static server reads it at.
    const starts = ['/'];
    const walk = (rel: string): void => {
      for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
        const sub = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) walk(sub);
        else if (e.name.endsWith('.html') && sub !== '404.html') starts.push(`/${sub.replace(/(^|\/)index\.html$/, '$1')}`);
      }
    };
    walk('');
    const result = await crawl(origin, starts);
    const byStatus: Record<number, number> = {};
    for (const m of result.misses) byStatus[m.status] = (byStatus[m.status] ?? 0) + 1;
    process.stdout.write(`${JSON.stringify({ requested: result.visited.length, pages: result.pages.size, misses: result.misses.length, byStatus, sample: result.misses.slice(0, 5) })}\n`);
  } finally {
    server.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
