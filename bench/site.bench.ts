/**
 * Site listener benchmark (issue 5):
 *  1. requests per second and p99 latency serving a 1,000-page site, 100 connections on loopback
 *     (autocannon, in this process), the appliance in its own process (`serve`), beside nginx
 *     (Debian package, one worker like Node's one thread) serving the same extracted files with
 *     `try_files $uri $uri.html $uri/index.html =404`, when nginx is installed;
 *  2. time from start to ready for a 10,000-page bundle, cold (fetch over HTTP + verify +
 *     extract) and warm (pinned version already extracted).
 * Bundles come from the real renderer (bench/gen-pages.ts sources); if the renderer fails, a
 * synthetic bundle with a valid manifest is used instead and the output says so.
 *
 *   node --import tsx bench/site.bench.ts [--pages 1000] [--ready-pages 10000] [--duration 10]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { parseConfig } from '../config/load.js';
import { startAppliance } from '../app/appliance.js';
import { createLogger } from '../app/logger.js';
import { loadBundle } from '../app/loader/load-bundle.js';
import type { SiteFeature } from '../app/site/feature.js';
import { generateSite } from './gen-pages.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000' },
    'ready-pages': { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
  },
});
const PAGES = Number(args.pages);
const READY_PAGES = Number(args['ready-pages']);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const root = path.resolve(import.meta.dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'site-bench-'));

interface Bundle {
  zip: string;
  version: string;
  pageUrls: string[];
  how: string;
}

/** Export a generated docs site with the renderer; fall back to a synthetic bundle. */
async function buildBundle(pages: number): Promise<Bundle> {
  const version = `bench-${pages}`;
  const zip = path.join(work, `${version}.zip`);
  const source = path.join(work, `src-${pages}`);
  generateSite(source, pages);
  const started = performance.now();
  try {
    const { exportSite } = await import('../renderer/index.js');
    const result = await exportSite({ sourceDir: source, outZip: zip, version, projectId: 'bench', domain: 'docs.bench.internal' });
    const pageUrls = result.manifest.files.filter((f) => f.path.endsWith('.html') && f.path !== '404.html').map((f) => '/' + f.path.replace(/\.html$/, '').replace(/(^|\/)index$/, ''));
    return { zip, version, pageUrls, how: `renderer export of ${result.pageCount} generated pages (${Math.round(performance.now() - started)} ms)` };
  } catch (err) {
    console.log(`renderer export failed (${(err as Error).message.split('\n')[0]}); using a synthetic bundle`);
    return syntheticBundle(pages, version, zip);
  }
}

/** ~6 KB HTML pages plus a few hashed assets, with a manifest, zipped by jszip. */
async function syntheticBundle(pages: number, version: string, zip: string): Promise<Bundle> {
  const JSZip = (await import('jszip')).default;
  const z = new JSZip();
  const files: { path: string; size: number; sha256: string }[] = [];
  const add = (p: string, data: Buffer) => {
    z.file(p, data);
    files.push({ path: p, size: data.length, sha256: crypto.createHash('sha256').update(data).digest('hex') });
  };
  const pageUrls: string[] = [];
  for (let i = 0; i < pages; i++) {
    const p = `section-${Math.floor(i / 250)}/page-${i}`;
    add(`${p}.html`, Buffer.from(`<!doctype html><title>Page ${i}</title><link rel="stylesheet" href="/_static/site.0123abcd.css">${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(100)}`));
    pageUrls.push(`/${p}`);
  }
  add('index.html', Buffer.from('<!doctype html><title>Home</title>'));
  add('404.html', Buffer.from('<!doctype html><title>Not found</title>'));
  add('_static/site.0123abcd.css', Buffer.from('body{margin:0}'.repeat(500)));
  const manifest = { format: 1, jobId: 'bench', projectId: 'bench', domain: 'docs.bench.internal', version, createdAt: new Date().toISOString(), pageCount: pages + 1, files, warnings: [] };
  z.file('manifest.json', JSON.stringify(manifest));
  await new Promise<void>((resolve, reject) => {
    z.generateNodeStream({ streamFiles: true, compression: 'DEFLATE', compressionOptions: { level: 1 } }).pipe(fs.createWriteStream(zip)).on('finish', resolve).on('error', reject);
  });
  return { zip, version, pageUrls, how: `synthetic bundle of ${pages} pages` };
}

/** Total uncompressed size from the zip's central directory (for the report only). */
async function unzippedSize(zip: string): Promise<number> {
  const yauzl = (await import('yauzl')).default;
  return new Promise((resolve, reject) => {
    yauzl.open(zip, { lazyEntries: false }, (err, z) => {
      if (err || !z) return reject(err ?? new Error('cannot open zip'));
      let total = 0;
      z.on('entry', (e: { uncompressedSize: number }) => (total += e.uncompressedSize));
      z.on('end', () => resolve(total));
      z.on('error', reject);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      http.get(url, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      }).on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`${url} not ready`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface LoadResult {
  rps: number;
  p99: number;
  p50: number;
  errors: number;
  non2xx: number;
  /** Requests served per CPU-second of the server's processes: robust to other load on the machine. */
  perCpuSecond: number | undefined;
}

/** CPU seconds (user + system) used so far by a process and its children, from /proc. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command: field 14 (utime) and 15 (stime) of stat(5) are at index 11 and 12.
    let ticks = Number(fields[11]) + Number(fields[12]);
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    for (const c of children ? children.split(' ') : []) ticks += (cpuSeconds(Number(c)) ?? 0) * 100;
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

async function load(port: number, urls: string[], pid: number | undefined): Promise<LoadResult> {
  const requests = urls.slice(0, 500).map((p) => ({ method: 'GET' as const, path: p }));
  const run = (duration: number) => autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration, requests });
  await run(2); // warm-up: caches, JIT, keep-alive sockets
  const before = pid ? cpuSeconds(pid) : undefined;
  const r = await run(DURATION);
  const after = pid ? cpuSeconds(pid) : undefined;
  const cpu = before !== undefined && after !== undefined ? after - before : undefined;
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, errors: r.errors + r.timeouts, non2xx: r.non2xx, perCpuSecond: cpu ? r.requests.total / cpu : undefined };
}

async function applianceRps(siteDir: string): Promise<LoadResult> {
  const port = await freePort();
  const stateDir = path.join(work, 'rps-state');
  const config = path.join(work, 'rps-config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({ stateDir, admin: { port: 0, host: '127.0.0.1' }, site: { port, host: '127.0.0.1' }, organizations: [{ id: 'bench', name: 'Bench' }], staticExport: { enabled: true, bundleUrl: siteDir } }),
  );
  const logFd = fs.openSync(path.join(work, 'serve.log'), 'w');
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'app/cli.ts'), 'serve', '--config', config], { stdio: ['ignore', logFd, logFd], env: { ...process.env, DOCS_APPLIANCE_CONFIG: '' } });
  try {
    await waitFor(`http://127.0.0.1:${port}${urlsFor(siteDir)[0]}`);
    return await load(port, urlsFor(siteDir), proc.pid);
  } catch (err) {
    console.log(fs.readFileSync(path.join(work, 'serve.log'), 'utf8').split('\n').slice(-20).join('\n'));
    throw err;
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    fs.closeSync(logFd);
  }
}

async function nginxRps(siteDir: string): Promise<LoadResult | undefined> {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
  if (!nginx) return undefined;
  const port = await freePort();
  const dir = path.join(work, 'nginx');
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log ${dir}/logs/access.log;
  sendfile on; tcp_nopush on; keepalive_requests 100000;
  client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp; uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;
  server {
    listen 127.0.0.1:${port};
    root ${siteDir};
    location / { try_files $uri $uri.html $uri/index.html =404; }
  }
}
`,
  );
  const proc = spawn(nginx, ['-p', dir, '-c', conf], { stdio: 'ignore' });
  try {
    // The temp dirs are private (0700): a worker running as nobody could not read them.
    await waitFor(`http://127.0.0.1:${port}${urlsFor(siteDir)[0]}`);
    return await load(port, urlsFor(siteDir), proc.pid);
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
}

const urlCache = new Map<string, string[]>();
const urlsFor = (dir: string) => urlCache.get(dir)!;

/** Start an in-process appliance and time until the site feature reports ready. */
async function timeToReady(stateDir: string, bundleUrl: string, version: string): Promise<{ ms: number; cpuMs: number }> {
  const config = parseConfig(
    { stateDir, admin: { port: 0, host: '127.0.0.1' }, site: { port: 0, host: '127.0.0.1' }, log: { level: 'warn' }, organizations: [{ id: 'bench', name: 'Bench' }], staticExport: { enabled: true, bundleUrl, version } },
    { source: 'bench' },
  );
  const started = performance.now();
  const cpu = process.cpuUsage();
  const appliance = await startAppliance({ config, log: createLogger('warn') });
  const site = appliance.features.find((f) => f.name === 'site') as SiteFeature;
  while (!site.ready!().ok) {
    if (site.loader.status.lastError) throw new Error(site.loader.status.lastError);
    await new Promise((r) => setImmediate(r));
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await appliance.stop('bench');
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

async function main(): Promise<void> {
  console.log(`site benchmark: ${os.cpus().length} CPUs, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, work dir ${work}`);

  // 1. Throughput on a 1,000-page site.
  const small = await buildBundle(PAGES);
  console.log(`bundle for throughput: ${small.how}, ${(fs.statSync(small.zip).size / 1e6).toFixed(1)} MB`);
  // Extracted once by the loader itself; both servers serve this same directory.
  const extracted = await loadBundle({
    stateDir: path.join(work, 'extract-state'),
    bundleUrl: small.zip,
    limits: { maxEntries: 1_000_000, maxUncompressedBytes: 8 * 1024 ** 3 },
    fetch: { connectTimeoutMs: 1000, totalTimeoutMs: 60_000, retries: 0, maxBytes: 8 * 1024 ** 3, backoffMs: 100 },
    log: createLogger('warn'),
  });
  const siteDir = extracted.dir;
  urlCache.set(siteDir, small.pageUrls);
  const ours = await applianceRps(siteDir);
  const theirs = await nginxRps(siteDir);
  const row = (name: string, r: LoadResult) =>
    `${name.padEnd(24)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${String(r.errors + r.non2xx).padStart(8)} ${(r.perCpuSecond?.toFixed(0) ?? 'n/a').padStart(10)}`;
  console.log(`\nthroughput: ${CONNECTIONS} connections, ${DURATION} s, ${Math.min(500, small.pageUrls.length)} extensionless page URLs in turn, no compression`);
  console.log(`${'server'.padEnd(24)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(8)} ${'req/CPU-s'.padStart(10)}`);
  console.log(row('docs-appliance site', ours));
  if (theirs) {
    console.log(row('nginx (1 worker)', theirs));
    const ratio = ours.rps / theirs.rps;
    console.log(`ratio appliance/nginx: ${ratio.toFixed(2)} (target >= 0.33: ${ratio >= 1 / 3 ? 'met' : 'NOT met'}); p99 ${ours.p99.toFixed(1)} ms (target < 10 ms: ${ours.p99 < 10 ? 'met' : 'NOT met'})`);
    if (ours.perCpuSecond && theirs.perCpuSecond) {
      console.log(`requests per CPU-second ratio appliance/nginx: ${(ours.perCpuSecond / theirs.perCpuSecond).toFixed(2)} (what the req/s ratio would be with a core each)`);
    }
  } else {
    console.log('nginx not installed: no baseline in this run');
  }

  // 2. Start-to-ready on a 10,000-page bundle.
  const big = await buildBundle(READY_PAGES);
  console.log(`\nbundle for start-up: ${big.how}, ${(fs.statSync(big.zip).size / 1e6).toFixed(1)} MB`);
  const extractedBytes = await unzippedSize(big.zip);
  console.log(`  ${(extractedBytes / 1e6).toFixed(0)} MB once extracted`);
  const zipBytes = fs.readFileSync(big.zip);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-length': zipBytes.length, 'content-type': 'application/zip' });
    res.end(zipBytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/bundle.zip`;
  const stateDir = path.join(work, 'ready-state');
  const cold = await timeToReady(stateDir, url, big.version);
  server.close();
  const warm = await timeToReady(stateDir, url, big.version);
  console.log(`${'start to ready'.padEnd(24)} ${'wall ms'.padStart(8)} ${'CPU ms'.padStart(8)}   target`);
  console.log(`${'cold (fetch + verify)'.padEnd(24)} ${cold.ms.toFixed(0).padStart(8)} ${cold.cpuMs.toFixed(0).padStart(8)}   < 10000 ms: ${cold.ms < 10_000 ? 'met' : 'NOT met'}`);
  console.log(`${'warm (pinned cache)'.padEnd(24)} ${warm.ms.toFixed(0).padStart(8)} ${warm.cpuMs.toFixed(0).padStart(8)}   < 1000 ms: ${warm.ms < 1000 ? 'met' : 'NOT met'} (bundle server down during the warm start)`);
  console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (on ${os.cpus().length} CPUs; figures above ${os.loadavg()[0]! > os.cpus().length ? 'are inflated by other work on this machine' : 'were taken on a quiet machine'})`);
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  fs.rmSync(work, { recursive: true, force: true });
  process.exitCode = 1;
});
