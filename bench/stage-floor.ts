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

// `node --import tsx bench/stage-floor.ts <dir>` prints measureFloors(dir) as JSON: the renderer
// benchmark runs it in a child process, so that the floors' garbage never counts in the export's
// peak memory.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: stage-floor.ts <docs dir>');
  process.stdout.write(`${JSON.stringify(measureFloors(dir))}\n`);
}
