import fs from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { importNdjson, type ImportProgress } from '../analytics/import.js';
import { createSearchEventStore } from '../../data/stores/search-events.js';
import { openState, parse, println, UsageError, type Command, type CommandIo } from './io.js';

/** Rejected lines printed one by one; past this only counted (the summary has the total). */
const SHOWN_REJECTIONS = 1000;

function progressReporter(io: CommandIo): { update(p: ImportProgress): void; stop(): void } {
  if (io.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream: io.stderr as NodeJS.WriteStream, format: 'import [{bar}] {percentage}% | {lines} lines | {accepted} events | {eta_formatted} left', hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(p) {
        if (!started) {
          bar.start(p.bytesTotal, 0, { lines: 0, accepted: 0 });
          started = true;
        }
        bar.update(p.bytesRead, { lines: p.lines, accepted: p.accepted });
      },
      stop() {
        if (started) bar.stop();
        started = false;
      },
    };
  }
  let lastDecile = -1;
  return {
    update(p) {
      const decile = p.bytesTotal ? Math.floor((p.bytesRead / p.bytesTotal) * 10) : 10;
      if (decile !== lastDecile) {
        io.stderr.write(`import: ${Math.min(100, decile * 10)}% (${p.lines} lines, ${p.accepted} events)\n`);
        lastDecile = decile;
      }
    },
    stop: () => undefined,
  };
}

/**
 * `docs-appliance analytics import <file.ndjson>`: events for migrations and load tests. Works
 * beside a running server (WAL; the server sees the events on its next report). Exit 0 when the
 * file was read to the end, rejected lines included (each reported as `line N: problem`);
 * with --strict, 1 when any line was rejected.
 */
export const analyticsCommand: Command = {
  summary: 'Import search and click events from an NDJSON file',
  usage: 'docs-appliance analytics import <file.ndjson> [--config <file>] [--strict] [--json]',
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'import') throw new UsageError(`unknown analytics subcommand "${sub ?? ''}"`);
    const args = parse(rest, { strict: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } });
    const file = args.positionals[0];
    if (!file || args.positionals.length > 1) throw new UsageError('analytics import takes one NDJSON file');
    const abs = path.resolve(io.cwd, file);
    if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) {
      println(io.stderr, `error: ${file}: no such file`);
      return 1;
    }
    const state = openState(args.values.config, io);
    // A bulk load: a large page cache keeps the term and time indexes' hot pages in memory
    // (this connection only; the server's is unaffected).
    state.db.pragma('cache_size = -262144');
    const progress = progressReporter(io);
    let shown = 0;
    try {
      const projects = new Set(state.stores.projects.list().map((p) => p.id));
      const result = await importNdjson(abs, {
        store: createSearchEventStore(state.db),
        knownProjects: projects,
        onRejected: (line, message) => {
          if (shown++ < SHOWN_REJECTIONS) io.stderr.write(`${file}: line ${line}: ${message}\n`);
        },
        onProgress: (p) => progress.update(p),
      });
      progress.stop();
      if (result.rejected > SHOWN_REJECTIONS) println(io.stderr, `… ${result.rejected - SHOWN_REJECTIONS} more rejected lines not shown`);
      if (args.values.json) println(io.stdout, JSON.stringify(result));
      else
        println(
          io.stdout,
          `Imported ${result.accepted} events from ${result.lines} lines in ${result.seconds.toFixed(1)} s (${result.stored} stored after de-duplication); ${result.rejected} lines rejected.`,
        );
      return args.values.strict && result.rejected > 0 ? 1 : 0;
    } finally {
      progress.stop();
      state.close();
    }
  },
};
