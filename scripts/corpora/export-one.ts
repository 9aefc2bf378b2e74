/**
 * One corpus export, run in its own process by run.ts so that its peak RSS is its own. Prints one
 * JSON line: pages, failures, warnings by code, the output directory's checks, time, peak RSS.
 */
import fs from 'node:fs';
import { createRenderPool, exportSite, ExportError, type ExportOptions, type RenderFailure } from '../../renderer/index.js';
import { checkSite, type SiteCheck } from '../site-check/check-site.js';

export interface CorpusRow {
  name: string;
  pages: number;
  failures: RenderFailure[];
  warningsByCode: Record<string, number>;
  check?: SiteCheck;
  /** Links that a plain static server (no rewrite rules) would answer with a 404: a portable bundle has none. */
  staticBrokenLinks?: SiteCheck['brokenLinks'];
  ms: number;
  peakRssMiB: number;
  error?: string;
}

async function main(): Promise<void> {
  const [sourceDir, outDir, name, threadsArg] = process.argv.slice(2);
  if (!sourceDir || !outDir || !name) throw new Error('usage: export-one <sourceDir> <outDir> <name> [threads]');
  fs.rmSync(outDir, { recursive: true, force: true });
  const pool = createRenderPool(threadsArg ? { threads: Number(threadsArg) } : {});
  const started = performance.now();
  const row: CorpusRow = { name, pages: 0, failures: [], warningsByCode: {}, ms: 0, peakRssMiB: 0 };
  try {
    // keepGoing: export every page that can be rendered and list the rest (issue 15); an
    // exporter without the option ignores it and fails strictly, which the row then shows.
    const options = { sourceDir, outDir, pool, keepGoing: true } as ExportOptions;
    const result = await exportSite(options);
    row.pages = result.pageCount;
    row.failures = (result as { failures?: RenderFailure[] }).failures ?? [];
    for (const w of result.warnings) row.warningsByCode[w.code] = (row.warningsByCode[w.code] ?? 0) + 1;
  } catch (err) {
    if (err instanceof ExportError) row.failures = err.failures;
    else row.error = err instanceof Error ? err.message : String(err);
  } finally {
    await pool.close();
  }
  row.ms = Math.round(performance.now() - started);
  if (fs.existsSync(outDir) && row.pages > 0) {
    row.check = checkSite(outDir);
    row.staticBrokenLinks = checkSite(outDir, 'static').brokenLinks;
  }
  row.peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
