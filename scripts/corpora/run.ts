/**
 * `npm run corpora -- <dir>… [--json] [--verbose] [--threads N] [--out DIR]`
 *
 * Exports each docs repository in its own process and prints one row per repository: pages,
 * failures, warnings by code, broken internal links (as the appliance and as a plain static server
 * resolve them), missing #fragment targets and pages showing
 * JSX/expression source (the last three checked in the output, see scripts/site-check/check-site.ts), time and peak
 * RSS. Not part of `npm test`: the repositories are not in the project.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CorpusRow } from './export-one.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    json: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    threads: { type: 'string' },
    out: { type: 'string', default: path.join(os.tmpdir(), 'docs-appliance-corpora') },
  },
});
if (positionals.length === 0) {
  process.stderr.write('usage: npm run corpora -- <docsDir>… [--json] [--verbose] [--threads N] [--out DIR]\n');
  process.exit(2);
}

const rows: CorpusRow[] = [];
for (const dir of positionals) {
  const name = path.basename(path.resolve(dir));
  const outDir = path.join(values.out as string, name);
  process.stderr.write(`corpora: exporting ${name}…\n`);
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'export-one.ts'), path.resolve(dir), outDir, name, ...(values.threads ? [values.threads] : [])],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const line = child.stdout.trim().split('\n').pop() ?? '';
  try {
    rows.push(JSON.parse(line) as CorpusRow);
  } catch {
    rows.push({ name, pages: 0, failures: [], warningsByCode: {}, ms: 0, peakRssMiB: 0, error: child.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${child.status}` });
  }
}

if (values.json) {
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  process.exit(0);
}

const warnings = (r: CorpusRow): string =>
  Object.entries(r.warningsByCode)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ${n}`)
    .join(', ') || '0';
const header = ['repository', 'pages', 'failures', 'broken links', 'broken on a static server', 'missing #fragments', 'raw-source pages', 'time s', 'peak RSS MiB', 'warnings by code'];
const table = rows.map((r) => [
  r.name,
  String(r.pages),
  r.error ? `error: ${r.error}` : String(r.failures.length),
  String(r.check?.brokenLinks.length ?? '-'),
  String(r.staticBrokenLinks?.length ?? '-'),
  String(r.check?.missingFragments.length ?? '-'),
  String(r.check?.rawSourcePages.length ?? '-'),
  (r.ms / 1000).toFixed(1),
  String(r.peakRssMiB),
  warnings(r),
]);
process.stdout.write(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n`);
for (const cells of table) process.stdout.write(`| ${cells.join(' | ')} |\n`);

const SHOWN = values.verbose ? Infinity : 5;
for (const r of rows) {
  const lines: string[] = [];
  for (const f of r.failures.slice(0, SHOWN)) lines.push(`  failure ${f.file}${f.line ? `:${f.line}` : ''}: ${f.message.split('\n')[0]}`);
  for (const l of r.check?.brokenLinks.slice(0, SHOWN) ?? []) lines.push(`  broken link on ${l.page}: ${l.href}`);
  for (const l of r.staticBrokenLinks?.slice(0, SHOWN) ?? []) lines.push(`  broken on a static server, on ${l.page}: ${l.href}`);
  for (const l of r.check?.missingFragments.slice(0, SHOWN) ?? []) lines.push(`  missing fragment on ${l.page}: ${l.href}`);
  for (const p of r.check?.rawSourcePages.slice(0, SHOWN) ?? []) lines.push(`  raw source on ${p.page}: ${p.sample}`);
  if (lines.length > 0) process.stdout.write(`\n${r.name}:\n${lines.join('\n')}\n`);
}
