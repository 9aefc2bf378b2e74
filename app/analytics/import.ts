import fs from 'node:fs';
import { checkImported, type IngestEvent } from './events.js';
import { createSessionTracker } from './sessions.js';
import type { SearchEventStore } from '../../data/stores/search-events.js';

export interface ImportProgress {
  bytesRead: number;
  bytesTotal: number;
  lines: number;
  accepted: number;
}

export interface ImportResult {
  lines: number;
  /** Valid events read (searches repeated within the de-duplication window are then not stored). */
  accepted: number;
  /** Events written to the database. */
  stored: number;
  rejected: number;
  seconds: number;
}

export interface ImportOptions {
  store: SearchEventStore;
  /** Projects events may name; another projectId is a rejected line. */
  knownProject: (projectId: string) => boolean;
  onRejected: (line: number, message: string) => void;
  onProgress?: (p: ImportProgress) => void;
  /** Events per transaction. */
  batchSize?: number;
  now?: () => number;
}

/**
 * Streams an NDJSON file of events (DESIGN 3.3's imported form) into the database, in large
 * transactions through the same session rules and rollups as the beacons. A bad line is
 * reported by number and skipped; the import goes on. The file is split on newlines by hand
 * rather than with readline: measurably faster at ten million lines.
 */
export async function importNdjson(file: string, opts: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const batchSize = opts.batchSize ?? 20_000;
  const now = opts.now ?? (() => Date.now());
  const sessions = createSessionTracker();
  const bytesTotal = fs.statSync(file).size;
  let bytesRead = 0;
  let lineNo = 0;
  let accepted = 0;
  let stored = 0;
  let rejected = 0;
  let batch: IngestEvent[] = [];
  let nowMs = now();

  const flush = () => {
    if (!batch.length) return;
    const rows = sessions.process(batch);
    opts.store.writeBatch(rows);
    stored += rows.length;
    batch = [];
    nowMs = now();
    opts.onProgress?.({ bytesRead, bytesTotal, lines: lineNo, accepted });
  };

  const line = (text: string) => {
    lineNo++;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      rejected++;
      opts.onRejected(lineNo, `not JSON: ${(err as Error).message}`);
      return;
    }
    const c = checkImported(value, nowMs);
    if (!c.ok) {
      rejected++;
      opts.onRejected(lineNo, c.message);
      return;
    }
    if (!opts.knownProject(c.event.projectId)) {
      rejected++;
      opts.onRejected(lineNo, `projectId: no project "${c.event.projectId}"`);
      return;
    }
    accepted++;
    batch.push(c.event);
    if (batch.length >= batchSize) flush();
  };

  let rest = '';
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  for await (const chunk of stream as AsyncIterable<string>) {
    bytesRead += Buffer.byteLength(chunk);
    const text = rest + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      line(text.endsWith('\r', nl) ? text.slice(start, nl - 1) : text.slice(start, nl));
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  if (rest.length) line(rest);
  flush();
  return { lines: lineNo, accepted, stored, rejected, seconds: (performance.now() - started) / 1000 };
}
