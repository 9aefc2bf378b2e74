import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import hljs from 'highlight.js';
import { marked, type Token, type Tokens } from 'marked';
import { tokenize } from '../renderer/index-stage/partial-index.js';

/**
 * The floors the renderer benchmark compares an export with, each measured in one thread:
 *
 * - `floor`: read every page and `marked.parse` it (the baseline);
 * - `stageFloor`: the same plus the bare library calls of the stages every export must run besides
 *   Markdown: highlight.js on each fenced code block, deflate (zlib level 1, the export's level) and
 *   sha256 + CRC-32 of the resulting HTML, and search tokens of its text. No MDX, no components,
 *   no sanitising, no layout, no zip file: a lower bound on the CPU a page costs, whoever writes
 *   the renderer with these libraries.
 *
 * Dividing `stageFloor` by the number of threads gives the best wall time an export can reach on
 * this machine, hence the best "vs floor" ratio it can show.
 */

export interface Floors {
  /** floor: wall ms and CPU seconds. */
  ms: number;
  cpu: number;
  /** stage floor, with and without deflate: wall ms. */
  stageMs: number;
  storedStageMs: number;
}

/**
 * All three floors of one docs directory, measured one after the other in this thread, after a
 * warm-up on up to 500 of its pages (a fresh process would otherwise time the JIT compiling marked
 * and highlight.js, which the render workers have long done).
 */
export function measureFloors(dir: string): Floors {
  const warm = markdownFiles(dir).slice(0, 500);
  floor(warm);
  stageFloor(warm);
  // The floor includes finding the files, as it always has.
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const files = markdownFiles(dir);
  const ms = performance.now() - t0 + floor(files);
  const used = process.cpuUsage(c0);
  return { ms, cpu: (used.user + used.system) / 1e6, stageMs: stageFloor(files), storedStageMs: stageFloor(files, { deflate: false }) };
}

export function markdownFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.mdx') || e.name.endsWith('.md')) files.push(p);
    }
  };
  walk(dir);
  return files;
}

/** Milliseconds to read every page and `marked.parse` it, one thread. */
export function floor(files: readonly string[]): number {
  const t0 = performance.now();
  for (const f of files) marked.parse(fs.readFileSync(f, 'utf8'));
  return performance.now() - t0;
}

function highlightCodeTokens(tokens: Token[]): void {
  for (const token of tokens) {
    if (token.type === 'code') {
      const code = token as Tokens.Code;
      const language = code.lang?.split(/\s/)[0] ?? '';
      if (language && hljs.getLanguage(language)) {
        // What a renderer does with a fence: replace its text with highlighted markup.
        code.text = hljs.highlight(code.text, { language, ignoreIllegals: true }).value;
        code.escaped = true;
      }
    }
    const children = (token as { tokens?: Token[] }).tokens;
    if (children) highlightCodeTokens(children);
  }
}

const TAG = /<[^>]*>/g;

/**
 * Milliseconds for the stages' bare library calls on every page, one thread (see above).
 * `deflate: false` leaves compression out, as for a zip that stores its pages uncompressed.
 */
export function stageFloor(files: readonly string[], options: { deflate: boolean } = { deflate: true }): number {
  const t0 = performance.now();
  for (const f of files) {
    const tokens = marked.lexer(fs.readFileSync(f, 'utf8'));
    highlightCodeTokens(tokens);
    const html = marked.parser(tokens);
    const bytes = Buffer.from(html, 'utf8');
    if (options.deflate) zlib.deflateRawSync(bytes, { level: 1 });
    createHash('sha256').update(bytes).digest('hex');
    zlib.crc32(bytes);
    const counts = new Map<string, number>();
    for (const token of tokenize(html.replace(TAG, ' '))) {
      const term = token.toLowerCase();
      if (term) counts.set(term, (counts.get(term) ?? 0) + 1);
    }
  }
  return performance.now() - t0;
}

/**
 * One share of the stage floor measured on all cores: the pages `k` with `k % parts === part`,
 * after the same warm-up as measureFloors. Says `ready` and waits for a line on stdin before it
 * starts, so that every share runs at the same time (bench/renderer.bench.ts starts one process
 * per render thread and times the slowest).
 */
async function measureShare(dir: string, part: number, parts: number): Promise<number> {
  const all = markdownFiles(dir);
  stageFloor(all.slice(0, 500));
  const files = all.filter((_, k) => k % parts === part);
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  return stageFloor(files);
}

// `node --import tsx bench/stage-floor.ts <dir>` prints measureFloors(dir) as JSON: the renderer
// benchmark runs it in a child process, so that the floors' garbage never counts in the export's
// peak memory. `… <dir> <part> <parts>` measures one share of the stage floor on all cores.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [dir, part, parts] = process.argv.slice(2);
  if (!dir) throw new Error('usage: stage-floor.ts <docs dir> [<part> <parts>]');
  if (part !== undefined && parts !== undefined) {
    const ms = await measureShare(dir, Number(part), Number(parts));
    process.stdout.write(`${JSON.stringify({ ms })}\n`);
    process.stdin.destroy();
  } else {
    process.stdout.write(`${JSON.stringify(measureFloors(dir))}\n`);
  }
}
