/**
 * Reader analytics at scale (issue 20). `node --import tsx bench/reader-analytics.bench.ts
 * [--views N] [--paths N] [--days N] [--feedback N] [--requests N] [--ingest-seconds S]`, or
 * `BENCH_ONLY=reader-analytics npm run bench`.
 *
 * 1. Fills a temp database with N page views (default 10,000,000 over 100,000 paths and 30
 *    days, 20 % AI) and their rollups, generated in memory and bulk-inserted in one transaction
 *    (the fill is setup, not a measurement of the ingest path), plus feedback rows.
 * 2. Report latency p50/p99 over HTTP on loopback for views, visitors, feedback and feedback by
 *    page: all time, a week of whole days and a week with partial edges; after a restart (caches
 *    dropped) and steady.
 * 3. The naive GROUP BY over the raw views answering the same questions, in the same run.
 * 4. Ingest throughput of POST /_/events page views from autocannon (a child process).
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
import type { ReaderAnalyticsFeature } from '../app/reader-analytics/feature.js';
import { ALL_TIME_DAY, SITE_PATH_ID } from '../data/stores/page-views.js';
import { rng } from '../test/analytics/reference.js';

const { values: args } = parseArgs({
  options: {
    views: { type: 'string', default: '10000000' },
    paths: { type: 'string', default: '100000' },
    days: { type: 'string', default: '30' },
    feedback: { type: 'string', default: '200000' },
    requests: { type: 'string', default: '200' },
    'ingest-seconds': { type: 'string', default: '10' },
    /** Keep the filled database here and reuse it when it is already filled (report-only reruns). */
    state: { type: 'string' },
    /** Which measurements to run (with --state: e.g. only ingest again). */
    parts: { type: 'string', default: 'reports,naive,ingest' },
  },
  strict: false,
});
const N = Number(args.views);
const PATHS = Number(args.paths);
const DAYS = Number(args.days);
const FEEDBACK = Number(args.feedback);
const REQUESTS = Number(args.requests);
const INGEST_S = Number(args['ingest-seconds']);
const PROJECT = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const DAY = 86_400_000;
const NOW = Date.now();
const END_DAY = Math.floor(NOW / DAY);
const FIRST_DAY = END_DAY - DAYS;
const VISITORS_PER_DAY = 60_000;

const stateDir = args.state ? path.resolve(String(args.state)) : fs.mkdtempSync(path.join(os.tmpdir(), 'reader-bench-'));
fs.mkdirSync(stateDir, { recursive: true });
const reuse = fs.existsSync(path.join(stateDir, 'filled'));
const parts = new Set(String(args.parts).split(','));
const log = (s: string) => console.log(s);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const load = () => `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

log(`reader analytics bench: ${N.toLocaleString()} views, ${PATHS.toLocaleString()} paths, ${DAYS} days, ${FEEDBACK.toLocaleString()} feedback, state ${stateDir}`);
log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, ${load()}`);
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

// ---- 1. fill: generated in memory, bulk-inserted in one transaction ---------------------------
if (reuse) log(`reusing the filled database in ${stateDir}`);
else {
  const g0 = performance.now();
  const db = ctx.db;
  db.pragma('cache_size = -262144');
  const r = rng(20);
  db.prepare('INSERT INTO search_projects (project_id) VALUES (?) ON CONFLICT DO NOTHING').run(PROJECT);
  const pk = (db.prepare('SELECT pk FROM search_projects WHERE project_id = ?').get(PROJECT) as { pk: number }).pk;
  const ROWS = 100;
  const COLS = 6;
  const insRaw = db.prepare(`INSERT INTO page_views (project_pk, at_ms, path_id, ai, visitor, counted) VALUES ${Array.from({ length: ROWS }, () => '(?, ?, ?, ?, ?, ?)').join(', ')}`);
  const insHourly = db.prepare('INSERT INTO page_hourly (project_pk, hour, path_id, views_human, views_ai, visitors_human, visitors_ai, visitors_total) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const insHour = db.prepare('INSERT INTO page_hour_totals (project_pk, hour, version) VALUES (?, ?, 1)');
  const insDaily = db.prepare('INSERT INTO page_daily (project_pk, day, path_id, views_human, views_ai, visitors_human, visitors_ai, visitors_total) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const insDay = db.prepare('INSERT INTO page_day_totals (project_pk, day, version) VALUES (?, ?, 1)');
  const insPath = db.prepare('INSERT INTO page_paths (id, project_pk, path) VALUES (?, ?, ?)');
  const insFeedback = db.prepare(
    `INSERT INTO page_feedback (project_pk, public_id, created_ms, path, source, helpful, reason, comment, code, filename, lang, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const cap = PATHS + 1;
  const all = { vh: new Float64Array(cap), va: new Float64Array(cap), uh: new Float64Array(cap), ua: new Float64Array(cap), ut: new Float64Array(cap) };
  const pathName = (id: number) => `/docs/section-${id % 97}/page-${id}`;
  db.transaction(() => {
    for (let id = 1; id <= PATHS; id++) insPath.run(id, pk, pathName(id));
    const perDay = Math.floor(N / DAYS);
    const args: number[] = new Array(ROWS * COLS);
    // The current hour's sums, dense, and which paths it touched.
    const hv = [new Int32Array(cap), new Int32Array(cap), new Int32Array(cap), new Int32Array(cap), new Int32Array(cap)];
    let touched: number[] = [];
    let currentHour = -1;
    const closeHour = () => {
      if (currentHour < 0) return;
      for (const i of touched) {
        insHourly.run(pk, currentHour, i, hv[0]![i], hv[1]![i], hv[2]![i], hv[3]![i], hv[4]![i]);
        for (const a of hv) a[i] = 0;
      }
      insHour.run(pk, currentHour);
      touched = [];
    };
    let n = 0;
    for (let d = 0; d < DAYS; d++) {
      const day = FIRST_DAY + d;
      const count = d === DAYS - 1 ? N - perDay * (DAYS - 1) : perDay;
      const vh = new Int32Array(cap), va = new Int32Array(cap), uh = new Int32Array(cap), ua = new Int32Array(cap), ut = new Int32Array(cap);
      const seen = new Map<number, number>(); // (path, visitor) → bits
      const seenSite = new Map<number, number>();
      for (let i = 0; i < count; i++) {
        const atMs = day * DAY + Math.floor((DAY * i) / count);
        const path = 1 + Math.floor(PATHS * r() * r());
        const ai = r() < 0.2 ? 1 : 0;
        const v = Math.floor(VISITORS_PER_DAY * r() * r());
        const visitor = day * 1_000_000 + v;
        const hour = Math.floor(atMs / 3_600_000);
        if (hour !== currentHour) {
          closeHour();
          currentHour = hour;
        }
        const bit = ai ? 2 : 1;
        let counted = 0;
        for (const [map, target, idx, shift] of [[seen, path * 1_000_000 + v, path, 0], [seenSite, v, SITE_PATH_ID, 3]] as const) {
          const s = map.get(target) ?? 0;
          if (hv[0]![idx] === 0 && hv[1]![idx] === 0) touched.push(idx);
          if (ai) va[idx]!++, hv[1]![idx]!++;
          else vh[idx]!++, hv[0]![idx]!++;
          if ((s & bit) === 0) {
            if (ai) ua[idx]!++, hv[3]![idx]!++;
            else uh[idx]!++, hv[2]![idx]!++;
            if (s === 0) ut[idx]!++, hv[4]![idx]!++;
            map.set(target, s | bit);
            counted |= (bit | (s === 0 ? 4 : 0)) << shift;
          }
        }
        const o = n * COLS;
        args[o] = pk;
        args[o + 1] = atMs;
        args[o + 2] = path;
        args[o + 3] = ai;
        args[o + 4] = visitor;
        args[o + 5] = counted;
        if (++n === ROWS) {
          insRaw.run(args);
          n = 0;
        }
      }
      for (let i = 0; i < cap; i++) {
        if (vh[i] === 0 && va[i] === 0) continue;
        insDaily.run(pk, day, i, vh[i], va[i], uh[i], ua[i], ut[i]);
        all.vh[i]! += vh[i]!;
        all.va[i]! += va[i]!;
        all.uh[i]! += uh[i]!;
        all.ua[i]! += ua[i]!;
        all.ut[i]! += ut[i]!;
      }
      insDay.run(pk, day);
    }
    closeHour();
    if (n > 0) db.prepare(`INSERT INTO page_views (project_pk, at_ms, path_id, ai, visitor, counted) VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?)').join(', ')}`).run(args.slice(0, n * COLS));
    for (let i = 0; i < cap; i++) if (all.vh[i] || all.va[i]) insDaily.run(pk, ALL_TIME_DAY, i, all.vh[i], all.va[i], all.uh[i], all.ua[i], all.ut[i]);
    insDay.run(pk, ALL_TIME_DAY);
    const sources = ['contextual', 'thumbs_only', 'code_snippet', 'contextual'] as const;
    const statuses = ['pending', 'pending', 'in_progress', 'resolved', 'dismissed'] as const;
    for (let i = 0; i < FEEDBACK; i++) {
      const source = sources[i % 4]!;
      const at = FIRST_DAY * DAY + Math.floor((DAYS * DAY * i) / FEEDBACK);
      insFeedback.run(pk, `fb${i}`, at, pathName(1 + Math.floor(PATHS * r() * r())), source, source === 'code_snippet' ? null : r() < 0.6 ? 1 : 0, null,
        source === 'thumbs_only' ? null : `comment ${i}`, source === 'code_snippet' ? 'npm install docs' : null, null, source === 'code_snippet' ? 'bash' : null, statuses[i % 5]!);
    }
  }).immediate();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.pragma('cache_size = -16000');
  const rollups = (db.prepare('SELECT count(*) AS n FROM page_daily').get() as { n: number }).n;
  fs.writeFileSync(path.join(stateDir, 'filled'), '');
  log(`fill (setup, one transaction): ${((performance.now() - g0) / 1000).toFixed(1)} s; ${rollups.toLocaleString()} rollup rows; database ${(fs.statSync(path.join(stateDir, 'docs-appliance.db')).size / 1e9).toFixed(2)} GB (${load()})`);
}

// ---- 2. report latency ------------------------------------------------------------------------
const features = createFeatures(ctx);
const readers = features.find((f) => f.name === 'reader-analytics') as ReaderAnalyticsFeature;
const admin = http.createServer(buildAdminApp(ctx, features));
await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(admin.address() as AddressInfo).port}/v1/analytics/${PROJECT}`;

async function timeRequests(url: string, n: number, before?: () => void) {
  const times: number[] = [];
  const cpu: number[] = [];
  let body = '';
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
  return { p50: percentile(times, 50), p99: percentile(times, 99), cpuP50: percentile(cpu, 50), cpuP99: percentile(cpu, 99), body: JSON.parse(body) as Record<string, unknown> };
}

const weekFrom = new Date((END_DAY - 8) * DAY).toISOString().slice(0, 10);
const weekTo = new Date((END_DAY - 1) * DAY).toISOString().slice(0, 10);
const edgeFrom = encodeURIComponent(new Date((END_DAY - 8) * DAY + 9.5 * 3600_000).toISOString());
const edgeTo = encodeURIComponent(new Date((END_DAY - 1) * DAY + 14.25 * 3600_000).toISOString());
const ranges: [string, string][] = [
  ['all time', ''],
  ['week (whole days)', `dateFrom=${weekFrom}&dateTo=${weekTo}`],
  ['week (partial edges)', `dateFrom=${edgeFrom}&dateTo=${edgeTo}`],
];
if (parts.has('reports')) {
log(`\nreport latency over HTTP, ${REQUESTS} requests each (restart = caches dropped before each of 3 requests; steady = day vectors in memory; CPU = this process's CPU time per request, server and client alike) (${load()}):`);
for (const op of ['views', 'visitors', 'feedback', 'feedback/by-page']) {
  for (const [name, q] of ranges) {
    const url = `${base}/${op}?${q}`;
    const traffic = op === 'views' || op === 'visitors';
    const restart = traffic ? await timeRequests(url, 3, () => readers.clearReportCache()) : undefined;
    // One request first, as the warm-up after a start would have loaded the caches.
    await timeRequests(url, 1);
    const steady = await timeRequests(url, REQUESTS);
    const b = steady.body as { totals?: { total: number }; feedback?: unknown[] };
    log(
      `  ${op.padEnd(16)} ${name.padEnd(22)} ${restart ? `restart p50 ${ms(restart.p50)} p99 ${ms(restart.p99)} | ` : ''}steady p50 ${ms(steady.p50)} p99 ${ms(steady.p99)} (CPU p50 ${ms(steady.cpuP50)} p99 ${ms(steady.cpuP99)})` +
        (b.totals ? ` | total ${b.totals.total.toLocaleString()}` : ` | rows ${(b.feedback ?? []).length}`),
    );
  }
}
{
  const deep = await timeRequests(`${base}/views?limit=250&offset=50000`, Math.floor(REQUESTS / 4));
  log(`  views            all time, offset 50,000 steady p50 ${ms(deep.p50)} p99 ${ms(deep.p99)} (CPU p50 ${ms(deep.cpuP50)} p99 ${ms(deep.cpuP99)})`);
}
}

// ---- 3. naive GROUP BY over raw views -------------------------------------------------------------
if (parts.has('naive')) log(`\nnaive GROUP BY over the raw page_views, 2 runs each:`);
const naiveViews = ctx.db.prepare(
  `SELECT path_id, sum(ai = 0) AS h, sum(ai = 1) AS a, count(*) AS t FROM page_views WHERE project_pk = 1 AND at_ms >= ? AND at_ms < ? GROUP BY path_id ORDER BY t DESC LIMIT 50`,
);
const naiveVisitors = ctx.db.prepare(
  `SELECT path_id, count(DISTINCT visitor) AS t FROM page_views WHERE project_pk = 1 AND at_ms >= ? AND at_ms < ? GROUP BY path_id ORDER BY t DESC LIMIT 50`,
);
for (const [what, st] of parts.has('naive') ? ([['views', naiveViews], ['visitors', naiveVisitors]] as const) : []) {
  for (const [name, from, to] of [['all time', 0, 8.64e15], ['week (whole days)', (END_DAY - 8) * DAY, (END_DAY - 1) * DAY]] as const) {
    const times: number[] = [];
    for (let i = 0; i < 2; i++) {
      const t0 = performance.now();
      st.all(from, to);
      times.push(performance.now() - t0);
    }
    log(`  ${what.padEnd(9)} ${name.padEnd(20)} best ${ms(Math.min(...times))}, worst ${ms(Math.max(...times))}`);
  }
}

// ---- 4. ingest throughput -------------------------------------------------------------------------
const site = http.createServer(buildSiteApp(ctx, features));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const sitePort = (site.address() as AddressInfo).port;
// The listener counts beacons only for the project of the site it serves.
{
  const dir = path.join(stateDir, 'site');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<p>bench</p>');
  const siteFeature = features.find((f) => f.name === 'site') as import('../app/site/feature.js').SiteFeature;
  siteFeature.loader.activateLoaded({ version: 'bench', dir, projectId: PROJECT, mounted: true, source: dir, fromCache: false, pageCount: 1 }, 3);
}
const bin = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'autocannon');
const maxId = () => (ctx.db.prepare('SELECT max(id) AS m FROM page_views').get() as { m: number }).m;
log(`\ningest: autocannon (child process) → POST /_/events page views on loopback, ${INGEST_S} s each (${load()}):`);
for (const perRequest of parts.has('ingest') ? [100, 20, 1] : []) {
  const events = Array.from({ length: perRequest }, (_, i) => ({ type: 'pageview', path: `/docs/section-${i % 97}/page-${i}`, viewId: `v[<id>]-${i}` }));
  const body = JSON.stringify(perRequest === 1 ? events[0] : events);
  readers.flush();
  const before = maxId();
  const c0 = process.cpuUsage();
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(
      bin,
      ['-j', '-I', '-c', '32', '-d', String(INGEST_S), '-m', 'POST', '-H', 'content-type=application/json', '-H', 'host=docs.bench.internal', '-H', 'user-agent=Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', '-b', body, `http://127.0.0.1:${sitePort}/_/events`],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    ));
  } catch (err) {
    log(`  autocannon failed: ${(err as Error).message}`);
    continue;
  }
  readers.flush();
  const c = process.cpuUsage(c0);
  const r = JSON.parse(stdout) as { latency: { p50: number; p99: number }; '2xx': number; non2xx: number; duration: number };
  log(`  ${String(perRequest).padStart(3)} view(s)/request: ${Math.round(r['2xx'] / r.duration).toLocaleString()} req/s, ${Math.round((r['2xx'] * perRequest) / r.duration).toLocaleString()} events/s accepted, latency p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; ${(maxId() - before).toLocaleString()} rows written; server CPU ${(((c.user + c.system) / (r['2xx'] * perRequest))).toFixed(1)} µs per view (${Math.round(1e6 / ((c.user + c.system) / (r['2xx'] * perRequest))).toLocaleString()} views per CPU-second)`);
}

admin.close();
site.close();
for (const f of [...features].reverse()) await f.stop?.();
ctx.db.close();
if (!process.env.KEEP_BENCH_STATE && !args.state) fs.rmSync(stateDir, { recursive: true, force: true });
