import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import type { BuildWarning, ExportProgress, RenderPool } from '../../renderer/index.js';

interface ExportIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export const EXPORT_USAGE = `docs-appliance export <docsDir> --out <bundle.zip> [--out-dir DIR] [--version V]
    [--domain HOST] [--project ID] [--job-id ID] [--paths a,b/*] [--threads N] [--keep-going]
    [--no-component-scripts] [--csp POLICY] [--reader-access] [--memo DIR]`;

/** `export --keep-going` wrote the bundle but left pages out: a CI job can tell it from success (0) and failure (1). */
export const EXPORT_PARTIAL_EXIT_CODE = 3;

export const EXPORT_DETAILS = `Exit status:
  0  the bundle was written with every page
  1  the export failed (each failure as file:line: message); no bundle
  2  bad usage
  3  partial: with --keep-going, the bundle was written without the pages that failed (listed on
     standard error and in manifest.json)`;

/** Warnings shown per code in the summary; the manifest has all of them. */
const SHOWN_PER_CODE = 3;

const where = (w: BuildWarning): string => `${w.file}${w.line ? `:${w.line}` : ''}`;

function warningSummary(warnings: BuildWarning[]): string[] {
  const byCode = new Map<string, BuildWarning[]>();
  for (const w of warnings) byCode.set(w.code, [...(byCode.get(w.code) ?? []), w]);
  const lines: string[] = [];
  for (const [code, list] of [...byCode.entries()].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`  ${code}: ${list.length}`);
    for (const w of list.slice(0, SHOWN_PER_CODE)) lines.push(`    ${where(w)}: ${w.message}`);
    if (list.length > SHOWN_PER_CODE) lines.push(`    … ${list.length - SHOWN_PER_CODE} more in manifest.json`);
  }
  return lines;
}

/** A progress bar on a terminal; elsewhere (CI, logs) a plain line per stage and every 10 %. */
function progressReporter(io: ExportIo): { update(p: ExportProgress): void; stop(): void } {
  if (io.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream: io.stderr as NodeJS.WriteStream, format: 'export [{bar}] {percentage}% | {value}/{total} pages | {stage}', hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(p) {
        if (!started && p.pagesPlanned > 0) {
          bar.start(p.pagesPlanned, 0, { stage: p.stage });
          started = true;
        }
        if (started) bar.update(p.pagesDone, { stage: p.stage });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastStage = '';
  let lastDecile = -1;
  return {
    update(p) {
      const decile = p.pagesPlanned > 0 ? Math.floor((p.pagesDone / p.pagesPlanned) * 10) : 0;
      if (p.stage !== lastStage || (p.stage === 'render' && decile !== lastDecile)) {
        io.stderr.write(`export: ${p.stage} ${p.pagesDone}/${p.pagesPlanned} pages\n`);
        lastStage = p.stage;
        lastDecile = decile;
      }
    },
    stop: () => undefined,
  };
}

/**
 * `docs-appliance export`: a one-shot offline export of a docs directory to a bundle zip. Exit 0
 * only when the zip was written; 1 when the export failed (each failure as file:line: message);
 * 2 for bad usage. With --keep-going, pages that fail are left out and listed, and the zip of the
 * rest is written (exit 3, EXPORT_PARTIAL_EXIT_CODE, when any page was left out). `deps.renderPool` supplies the pool for `--threads` (undefined: one
 * per core), closed at the end like the command's own (tests hand in a warm one).
 */
export async function runExport(argv: string[], io: ExportIo, deps: { renderPool?: (threads: number | undefined) => RenderPool } = {}): Promise<number> {
  let values: Record<string, string | undefined>;
  let keepGoing = false;
  let componentScripts = true;
  let readerAccess = false;
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        out: { type: 'string', short: 'o' },
        'out-dir': { type: 'string' },
        version: { type: 'string' },
        domain: { type: 'string' },
        project: { type: 'string' },
        'job-id': { type: 'string' },
        paths: { type: 'string' },
        threads: { type: 'string' },
        'keep-going': { type: 'boolean' },
        'no-component-scripts': { type: 'boolean' },
        // Reader access (issue 40): page requirements, the manifest's access map and markers.
        'reader-access': { type: 'boolean' },
        // The policy the pages carry as a meta (renderer/csp.ts); default: the appliance's default.
        csp: { type: 'string' },
        // A render memo kept between runs (docs/renderer.md, "Render memo"): a rerun renders only what changed.
        memo: { type: 'string' },
      },
    });
    const { 'keep-going': keep, 'no-component-scripts': noScripts, 'reader-access': access, ...strings } = parsed.values;
    readerAccess = access === true;
    keepGoing = keep === true;
    componentScripts = noScripts !== true;
    values = strings;
    positionals = parsed.positionals;
  } catch (err) {
    io.stderr.write(`error: ${(err as Error).message}\nusage: ${EXPORT_USAGE}\n`);
    return 2;
  }
  const [docsDir, ...extra] = positionals;
  if (!docsDir || extra.length > 0 || !values['out']) {
    io.stderr.write(`error: ${!docsDir ? 'missing <docsDir>' : extra.length ? `unexpected argument ${extra[0]}` : 'missing --out <bundle.zip>'}\nusage: ${EXPORT_USAGE}\n`);
    return 2;
  }
  const threads = values['threads'] === undefined ? undefined : Number(values['threads']);
  if (threads !== undefined && !(Number.isInteger(threads) && threads > 0)) {
    io.stderr.write(`error: --threads must be a positive integer\nusage: ${EXPORT_USAGE}\n`);
    return 2;
  }

  const started = performance.now();
  const reporter = progressReporter(io);
  // The renderer loads here, not with the CLI: `--help` and every other command start without it.
  const { createRenderPool, exportSite, ExportError, formatFailure, UnknownPathsError } = await import('../../renderer/index.js');
  const { RenderError } = await import('../../renderer/types.js');
  const pool = deps.renderPool ? deps.renderPool(threads) : createRenderPool(threads ? { threads } : {});
  try {
    const result = await exportSite({
      sourceDir: docsDir,
      outZip: values['out'],
      ...(values['out-dir'] ? { outDir: values['out-dir'] } : {}),
      ...(values['version'] ? { version: values['version'] } : {}),
      ...(values['domain'] ? { domain: values['domain'] } : {}),
      ...(values['project'] ? { projectId: values['project'] } : {}),
      ...(values['job-id'] ? { jobId: values['job-id'] } : {}),
      ...(values['csp'] ? { contentSecurityPolicy: values['csp'] } : {}),
      ...(values['paths'] ? { paths: values['paths'].split(',').map((p) => p.trim()).filter(Boolean) } : {}),
      ...(keepGoing ? { keepGoing } : {}),
      ...(componentScripts ? {} : { componentScripts }),
      ...(readerAccess ? { readerAccess } : {}),
      ...(values['memo'] ? { memoDir: values['memo'] } : {}),
      pool,
      onProgress: (p) => reporter.update(p),
    });
    reporter.stop();
    const seconds = (performance.now() - started) / 1000;
    const mb = ((result.sizeBytes ?? 0) / 1024 / 1024).toFixed(1);
    io.stdout.write(`exported ${result.pageCount} pages to ${path.resolve(values['out'])} (${mb} MB, ${result.files.size} files) in ${seconds.toFixed(2)} s\n`);
    if (values['out-dir']) io.stdout.write(`site written to ${path.resolve(values['out-dir'])}\n`);
    if (result.memo) io.stdout.write(`render memo: ${result.memo.pagesRendered} pages rendered, ${result.memo.pagesReused} reused\n`);
    if (result.warnings.length > 0) {
      io.stdout.write(`${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}:\n${warningSummary(result.warnings).join('\n')}\n`);
    }
    if (result.failures.length > 0) {
      const n = result.failures.length;
      io.stderr.write(`${n} failure${n === 1 ? '' : 's'} (--keep-going: these pages are not in the bundle; manifest.json lists them):\n${result.failures.map((f) => `  ${formatFailure(f)}`).join('\n')}\n`);
      io.stderr.write(`partial export: exit ${EXPORT_PARTIAL_EXIT_CODE}\n`);
      return EXPORT_PARTIAL_EXIT_CODE;
    }
    return 0;
  } catch (err) {
    reporter.stop();
    if (err instanceof ExportError) io.stderr.write(`error: export failed, ${err.message}\n`);
    else if (err instanceof RenderError) io.stderr.write(`error: ${err.location}: ${err.message}\n`);
    else if (err instanceof UnknownPathsError) io.stderr.write(`error: --paths: ${err.message}\n`);
    else io.stderr.write(`error: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await pool.close();
  }
}

/** The command as registered in app/cli.ts. */
export const exportCommand = {
  summary: 'Export a docs directory to a static bundle zip (offline, with a progress bar)',
  usage: EXPORT_USAGE,
  details: EXPORT_DETAILS,
  versionOption: true as const,
  run: (argv: string[], io: ExportIo): Promise<number> => runExport(argv, io),
};
