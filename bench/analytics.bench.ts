/**
 * Search analytics at scale (issue 6). `node --import tsx bench/analytics.bench.ts [--events N]
 * [--requests N] [--ingest-seconds S]`.
 *
 * 1. Writes N events (default 10,000,000; 100,000 distinct terms over 30 days) as an NDJSON file
 *    and imports it with the real `analytics import` code (app/analytics/import.ts): the fill is
 *    the import measurement.
 * 2. Report latency p50/p99 over HTTP on loopback: all time, and a one-week range (whole days
 *    and with partial edges), after a restart, steady and repeated; wall time and the process's
 *    CPU time per request, and the garbage collector's pauses meanwhile.
 * 3. The same questions answered by a naive GROUP BY over the raw table, in the same run.
 * 4. Ingest throughput of POST /_/events from autocannon (a child process) on loopback.
 */
import { execFile } from 'node:child_process';
import { parseArgs, promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../config/load.js';
import { buildAdminApp } from '../app/admin-app.js';
import { buildSiteApp } from '../app/site-app.js';
import { createAppContext } from '../app/create-context.js';
import { createFeatures } from '../app/features.js';
import { createLogger } from '../app/logger.js';
import type { AnalyticsFeature } from '../app/analytics/feature.js';
import { importNdjson } from '../app/analytics/import.js';
import type { IngestEvent } from '../app/analytics/events.js';
import { createSearchEventStore } from '../data/stores/search-events.js';
import { PerformanceObserver } from 'node:perf_hooks';
import { rng } from '../test/analytics/reference.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    requests: { type: 'string', default: '200' },
    'ingest-seconds': { type: 'string', default: '10' },
    terms: { type: 'string', default: '100000' },
    days: { type: 'string', default: '30' },
  },
  strict: false,
});
const N = Number(args.events);
const REQUESTS = Number(args.requests);
const INGEST_S = Number(args['ingest-seconds']);
const TERMS = Number(args.terms);
const DAYS = Number(args.days);
const PROJECT = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const DAY = 86_400_000;
const NOW = Date.now();
const END_DAY = Math.floor(NOW / DAY); // today, partial
const START_MS = (END_DAY - DAYS) * DAY;

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-'));
const log = (s: string) => console.log(s);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const load = () => `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`;


/** Skewed like real search logs (a few terms are most searches) with a long tail that still occurs. */
function eventSource(seed: number) {
  const r = rng(seed);
  const termIndex = () => Math.floor(TERMS * r() * r());
  return (i: number, total: number): IngestEvent => {
    // Time order, as an export of a live system is; spread evenly over DAYS days until now.
    const atMs = START_MS + Math.floor(((NOW - START_MS) * i) / total);
    const t = termIndex();
    const norm = `term ${t}`;
    const sessionId = `s${Math.floor(r() * 50_000)}`;
    return r() < 0.8
      ? { projectId: PROJECT, kind: 0, norm, atMs, resultCount: Math.floor(r() * 30), path: null, sessionId }
      : { projectId: PROJECT, kind: 1, norm, atMs, resultCount: null, path: `/guides/page-${(t * 7 + Math.floor(8 * r() * r())) % 500}`, sessionId };
    // ^ a term's clicks go to its few results (up to 8 of 500 pages), as on a real site.
  };
}

/** CPU seconds of this process's main thread (Linux /proc), or NaN elsewhere. */
function mainThreadCpuSeconds(): number {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

function percentile(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

// Garbage-collector pauses while requests are timed: is a p99 spike the collector's?
const gcPauses: number[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauses.push(e.duration);
}).observe({ entryTypes: ['gc'] });

async function timeRequests(url: string, n: number, before?: () => void) {
  const times: number[] = [];
  const cpu: number[] = [];
  let body = '';
  gcPauses.length = 0;
  for (let i = 0; i < n; i++) {
    before?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    body = await new Promise<string>((resolve, reject) => {
      http.get(url, { headers: { authorization: `Bearer ${adminKey}` } }, (res) => {
        let b = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (b += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(b) : reject(new Error(`${res.statusCode} ${b}`))));
      }).on('error', reject);
    });
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    cpuP50: percentile(cpu, 50),
    cpuP99: percentile(cpu, 99),
    gcMax: gcPauses.length ? Math.max(...gcPauses) : 0,
    body: JSON.parse(body) as { totalSearches: number; searches: unknown[] },
  };
}

// ---- 1. fill ---------------------------------------------------------------------------------
log(`analytics bench: ${N.toLocaleString()} events, ${TERMS.toLocaleString()} terms, ${DAYS} days, state ${stateDir}`);
log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const config = parseConfig(
  {
    stateDir,
    log: { level: 'warn' },
    organizations: [{ id: 'org_bench', name: 'Bench', plan: 'enterprise' }],
    projects: [{ id: PROJECT, orgId: 'org_bench', name: 'Bench', domain: 'docs.bench.internal', sourceDir: stateDir }],
    analytics: { rateLimitPerHour: 1_000_000_000, ingest: { perClientPerMinute: 1_000_000_000, maxBatch: 100 } },
  },
  { source: 'bench' },
);
const ctx = createAppContext({ config, log: createLogger('warn') });
const adminKey = ctx.stores.adminKeys.create({ orgId: 'org_bench', scopes: ['read', 'write'], expiresAt: null }).key;
{
  const file = path.join(stateDir, 'events.ndjson');
  const next = eventSource(1);
  const g0 = performance.now();
  const fd = fs.openSync(file, 'w');
  let buf: string[] = [];
  for (let i = 0; i < N; i++) {
    const e = next(i, N);
    const base = { projectId: PROJECT, query: e.norm, sessionId: e.sessionId, timestamp: new Date(e.atMs).toISOString() };
    buf.push(JSON.stringify(e.kind === 0 ? { type: 'search', ...base, resultCount: e.resultCount } : { type: 'click', ...base, path: e.path }));
    if (buf.length === 100_000) {
      fs.writeSync(fd, buf.join('\n') + '\n');
      buf = [];
    }
  }
  fs.writeSync(fd, buf.join('\n') + (buf.length ? '\n' : ''));
  fs.closeSync(fd);
  const mb = fs.statSync(file).size / 1e6;
  log(`NDJSON written: ${N.toLocaleString()} lines, ${mb.toFixed(0)} MB in ${((performance.now() - g0) / 1000).toFixed(1)} s (not part of the import)`);
  // What `analytics import` does (app/commands/analytics.ts): its page cache for the bulk load.
  ctx.db.pragma('cache_size = -262144');
  log(`(${load()})`);
  const c0 = process.cpuUsage();
  const m0 = mainThreadCpuSeconds();
  const r = await importNdjson(file, { store: createSearchEventStore(ctx.db), knownProjects: [PROJECT], onRejected: (line, m) => log(`rejected ${line}: ${m}`) });
  const c = process.cpuUsage(c0);
  const m = mainThreadCpuSeconds() - m0;
  log(
    `import (analytics import code path): ${r.lines.toLocaleString()} lines in ${r.seconds.toFixed(1)} s = ${Math.round(r.lines / r.seconds).toLocaleString()} lines/s ` +
      `(${r.stored.toLocaleString()} stored after de-duplication; CPU ${((c.user + c.system) / 1e6).toFixed(1)} s in all threads, ${m.toFixed(1)} s in the writing thread; ${load()})`,
  );
  fs.rmSync(file);
  ctx.db.pragma('wal_checkpoint(TRUNCATE)');
  ctx.db.exec('ANALYZE');
  ctx.db.pragma('cache_size = -16000'); // back to the build's default for the server measurements
  const size = fs.statSync(path.join(stateDir, 'docs-appliance.db')).size;
  log(`database: ${(size / 1e9).toFixed(2)} GB`);
}

// ---- 2. report latency ------------------------------------------------------------------------
const features = createFeatures(ctx);
const analytics = features.find((f) => f.name === 'analytics') as AnalyticsFeature;
const admin = http.createServer(buildAdminApp(ctx, features));
await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(admin.address() as AddressInfo).port}/v1/analytics/${PROJECT}/searches`;
const weekFrom = new Date((END_DAY - 8) * DAY).toISOString().slice(0, 10);
const weekTo = new Date((END_DAY - 1) * DAY).toISOString().slice(0, 10);
const weekFromEdge = new Date((END_DAY - 8) * DAY + 9.5 * 3600_000).toISOString();
const weekToEdge = new Date((END_DAY - 1) * DAY + 14.25 * 3600_000).toISOString();
const distinctWeek = (ctx.db.prepare('SELECT count(DISTINCT term_id) AS n FROM search_daily WHERE day >= ? AND day < ?').get(END_DAY - 8, END_DAY - 1) as { n: number }).n;
log(`one-week range ${weekFrom} .. ${weekTo}: ${distinctWeek.toLocaleString()} distinct terms`);
const cases: [string, string][] = [
  ['all time', base],
  [`week (whole days)`, `${base}?dateFrom=${weekFrom}&dateTo=${weekTo}`],
  [`week (partial edges)`, `${base}?dateFrom=${encodeURIComponent(weekFromEdge)}&dateTo=${encodeURIComponent(weekToEdge)}`],
];
log(`\n(${load()})`);
log(`report latency over HTTP, first page (limit 50), ${REQUESTS} requests each:`);
log('  restart = nothing cached (every closed day and hour read from SQLite); steady = closed days and hours in memory, ranking recomputed; repeat = same query, same data');
for (const [name, url] of cases) {
  const restart = await timeRequests(url, Math.max(5, Math.floor(REQUESTS / 5)), () => analytics.clearReportCache(true));
  const steady = await timeRequests(url, REQUESTS, () => analytics.clearReportCache());
  const repeat = await timeRequests(url, REQUESTS);
  log(
    `  ${name.padEnd(22)} restart p50 ${ms(restart.p50)} p99 ${ms(restart.p99)} | steady p50 ${ms(steady.p50)} p99 ${ms(steady.p99)} (CPU p50 ${ms(steady.cpuP50)} p99 ${ms(steady.cpuP99)}, longest GC pause ${ms(steady.gcMax)}) | repeat p50 ${ms(repeat.p50)} p99 ${ms(repeat.p99)} | totalSearches ${steady.body.totalSearches.toLocaleString()}`,
  );
}

// ---- 3. naive GROUP BY over raw events ------------------------------------------------------------
const naive = ctx.db.prepare(
  `SELECT t.norm, count(*) AS hits FROM search_events e JOIN search_terms t ON t.id = e.term_id
   WHERE e.project_pk = 1 AND e.kind = 0 AND e.at_ms >= ? AND e.at_ms < ? GROUP BY e.term_id ORDER BY hits DESC, t.norm LIMIT 50`,
);
log(`\nnaive GROUP BY over the raw table (hits only, no ctr/pages), 3 runs each:`);
for (const [name, from, to] of [
  ['all time', 0, 8.64e15],
  ['week (whole days)', (END_DAY - 8) * DAY, (END_DAY - 1) * DAY],
] as const) {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    naive.all(from, to);
    times.push(performance.now() - t0);
  }
  log(`  ${name.padEnd(22)} median ${ms(percentile(times, 50))}, max ${ms(Math.max(...times))}`);
}

// ---- 4. ingest throughput -----------------------------------------------------------------------
const site = http.createServer(buildSiteApp(ctx, features));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const sitePort = (site.address() as AddressInfo).port;
const bin = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'autocannon');
log(`\n(${load()})`);
log(`ingest: autocannon (child process) → POST /_/events on loopback, ${INGEST_S} s each:`);
for (const perRequest of [100, 20, 1]) {
  // autocannon replaces [<id>] with a fresh id per request: every request is new sessions, so
  // nothing is de-duplicated and every accepted event is written.
  const events = Array.from({ length: perRequest }, (_, i) => ({ type: 'search', query: `load term ${i}`, resultCount: 3, sessionId: `ld[<id>]-${i}` }));
  const body = JSON.stringify(perRequest === 1 ? events[0] : events);
  analytics.flush();
  const storedBefore = (ctx.db.prepare('SELECT max(id) AS m FROM search_events').get() as { m: number }).m;
  // Asynchronous: the server under test runs on this process's event loop.
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(bin, ['-j', '-I', '-c', '32', '-d', String(INGEST_S), '-m', 'POST', '-H', 'content-type=application/json', '-H', 'host=docs.bench.internal', '-b', body, `http://127.0.0.1:${sitePort}/_/events`], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    }));
  } catch (err) {
    log(`  autocannon failed: ${(err as Error).message}`);
    continue;
  }
  analytics.flush();
  const storedAfter = (ctx.db.prepare('SELECT max(id) AS m FROM search_events').get() as { m: number }).m;
  const r = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; '2xx': number; non2xx: number; duration: number };
  const eventsPerSec = (r['2xx'] * perRequest) / r.duration;
  log(`  ${String(perRequest).padStart(3)} event(s)/request: ${Math.round(r['2xx'] / r.duration).toLocaleString()} req/s, ${Math.round(eventsPerSec).toLocaleString()} events/s accepted, latency p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; ${(storedAfter - storedBefore).toLocaleString()} rows written`);
}
analytics.flush();

admin.close();
site.close();
for (const f of [...features].reverse()) await f.stop?.();
ctx.db.close();
if (!process.env.KEEP_BENCH_STATE) fs.rmSync(stateDir, { recursive: true, force: true });
