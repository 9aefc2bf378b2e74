/**
 * Beacon ingest alone (`BENCH_ONLY=ingest npm run bench`, about 30 s): POST /_/events from
 * autocannon (a child process, 32 connections) on loopback against a fresh appliance's site
 * listener, for search batches of 100, 20 and 1 events and single page views. Each 202 is
 * answered once its events are stored (the group commit of app/analytics/write-buffer.ts), so
 * rows written are never fewer than events acknowledged. Compare a tree against another by running this file
 * in both in the same session (the figures are the machine's, not absolutes). On a shared, loaded
 * machine throughput varies by 2x between runs of one tree; the server's CPU time per request
 * (this process: the server and the database) varies far less and is the figure to compare.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { parseConfig } from '../config/load.js';
import { buildSiteApp } from '../app/site-app.js';
import { createAppContext } from '../app/create-context.js';
import { createFeatures } from '../app/features.js';
import { createLogger } from '../app/logger.js';
import type { AnalyticsFeature } from '../app/analytics/feature.js';
import type { ReaderAnalyticsFeature } from '../app/reader-analytics/feature.js';
import type { SiteFeature } from '../app/site/feature.js';

const { values: args } = parseArgs({ options: { 'ingest-seconds': { type: 'string', default: '5' } }, strict: false });
const SECONDS = Number(args['ingest-seconds']);
const PROJECT = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const HOST = 'docs.bench.internal';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-bench-'));
const source = path.join(stateDir, 'docs');
fs.mkdirSync(source);
fs.writeFileSync(path.join(source, 'docs.json'), '{"name":"Bench","navigation":{"groups":[{"group":"G","pages":["index"]}]}}');
fs.writeFileSync(path.join(source, 'index.mdx'), '# Bench\n');
const config = parseConfig(
  {
    stateDir,
    log: { level: 'silent' },
    organizations: [{ id: 'org_bench', name: 'Bench' }],
    projects: [{ id: PROJECT, orgId: 'org_bench', name: 'Bench', domain: HOST, sourceDir: source }],
    analytics: { ingest: { perClientPerMinute: 100_000_000 } },
    site: { exampleOnFirstStart: false },
  },
  { source: 'bench' },
);
const ctx = createAppContext({ config, log: createLogger('silent') });
const features = createFeatures(ctx);
for (const f of features) await f.start?.();
// Serve a one-page site for the project, as the analytics tests do: beacons count for the served project only.
const served = path.join(stateDir, 'served');
fs.mkdirSync(served);
fs.writeFileSync(path.join(served, 'index.html'), '<p>bench</p>');
(features.find((f) => f.name === 'site') as SiteFeature).loader.activateLoaded({ version: 'bench', dir: served, projectId: PROJECT, mounted: true, source: served, fromCache: false, pageCount: 1 }, 3);
const analytics = features.find((f) => f.name === 'analytics') as AnalyticsFeature;
const readers = features.find((f) => f.name === 'reader-analytics') as ReaderAnalyticsFeature;
const site = http.createServer(buildSiteApp(ctx, features));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const port = (site.address() as AddressInfo).port;
const bin = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'autocannon');
const count = (table: string) => (ctx.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

console.log(`(load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores)`);
console.log(`ingest: autocannon -c 32, ${SECONDS} s each, POST /_/events on loopback`);
const cases: { name: string; body: string; table: string; perRequest: number }[] = [100, 20, 1].map((n) => {
  // autocannon replaces [<id>] with a fresh id per request: new sessions, nothing de-duplicated.
  const events = Array.from({ length: n }, (_, i) => ({ type: 'search', query: `load term ${i}`, resultCount: 3, sessionId: `ld[<id>]-${i}` }));
  return { name: `${String(n).padStart(3)} search event(s)/request`, body: JSON.stringify(n === 1 ? events[0] : events), table: 'search_events', perRequest: n };
});
cases.push({ name: '  1 page view/request       ', body: JSON.stringify({ type: 'pageview', path: '/', viewId: 'v[<id>]' }), table: 'page_views', perRequest: 1 });
for (const c of cases) {
  analytics.flush();
  readers.flush();
  const before = count(c.table);
  const cpu = process.cpuUsage();
  const { stdout } = await promisify(execFile)(
    bin,
    ['-j', '-I', '-c', '32', '-d', String(SECONDS), '-m', 'POST', '-H', 'content-type=application/json', '-H', `host=${HOST}`, '-H', `user-agent=${BROWSER}`, '-b', c.body, `http://127.0.0.1:${port}/_/events`],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  analytics.flush();
  readers.flush();
  const used = process.cpuUsage(cpu);
  const r = JSON.parse(stdout) as { latency: { p50: number; p99: number }; '2xx': number; non2xx: number; duration: number };
  console.log(
    `  ${c.name}: ${Math.round(r['2xx'] / r.duration).toLocaleString()} req/s, ${Math.round((r['2xx'] * c.perRequest) / r.duration).toLocaleString()} events/s, server CPU ${Math.round((used.user + used.system) / Math.max(1, r['2xx']))} µs/request, latency p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; ${(count(c.table) - before).toLocaleString()} rows written, ${(r['2xx'] * c.perRequest).toLocaleString()} events acknowledged`,
  );
}
site.close();
for (const f of [...features].reverse()) await f.stop?.();
ctx.db.close();
fs.rmSync(stateDir, { recursive: true, force: true });
