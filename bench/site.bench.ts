/**
 * Site listener benchmark (issue 5):
 *  1. requests per second and p99 latency serving a 1,000-page site, 100 connections on loopback,
 *     the appliance in its own process (`serve`), beside nginx (Debian package, one worker like
 *     Node's one thread) serving the same extracted files with `try_files $uri $uri.html
 *     $uri/index.html =404`, when nginx is installed. The load generator is wrk in its own process
 *     (one thread) when /usr/bin/wrk exists, else autocannon in this process (which then competes
 *     with the servers for the CPU: the output says so). Two passes: with the request headers a
 *     browser sends (`Accept-Encoding: gzip, deflate, br`), and identity (no Accept-Encoding);
 *     A third server in the same run is the raw Node floor (bench/node-floor.ts): a bare
 *     `http.createServer` in its own process answering every URL with the bytes and headers the
 *     appliance sent for it, captured at bench time: what Node's http module itself allows;
 *  2. time from start to ready for a 10,000-page bundle, cold (fetch over HTTP + verify +
 *     extract) and warm (pinned version already extracted).
 * Bundles come from the real renderer (bench/gen-pages.ts sources); if the renderer fails, a
 * synthetic bundle with a valid manifest is used instead and the output says so.
 *
 *   node --import tsx bench/site.bench.ts [--pages 1000] [--ready-pages 10000] [--duration 10]
 *     [--connections 100] [--skip-rps] [--skip-ready] [--cpu-prof <dir>] [--autocannon]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
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
    'skip-rps': { type: 'boolean', default: false },
    'skip-ready': { type: 'boolean', default: false },
    /** Start the appliance with `node --cpu-prof --cpu-prof-dir <dir>` (profile of the serving process; the node floor's in <dir>/node-floor). */
    'cpu-prof': { type: 'string' },
    /** Use autocannon even when wrk is installed. */
    autocannon: { type: 'boolean', default: false },
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
  /** User and system (kernel) CPU microseconds per request: where a server's CPU goes. */
  userUs: number | undefined;
  sysUs: number | undefined;
  /** 1-minute load average when the timed run ended (other work on the machine). */
  load: number;
}

/** User and system CPU seconds used so far by a process (all its threads) and its children. */
function cpuTimes(pid: number): { user: number; sys: number } | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command: field 14 (utime) and 15 (stime) of stat(5) are at index 11 and 12.
    let user = Number(fields[11]) / 100; // USER_HZ is 100 on Linux
    let sys = Number(fields[12]) / 100;
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    for (const c of children ? children.split(' ') : []) {
      const ct = cpuTimes(Number(c));
      user += ct?.user ?? 0;
      sys += ct?.sys ?? 0;
    }
    return { user, sys };
  } catch {
    return undefined;
  }
}

const WRK = args.autocannon ? undefined : ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((p) => fs.existsSync(p));
/** What a browser sends; `identity` = no Accept-Encoding at all. */
const BROWSER_ENCODINGS = 'gzip, deflate, br';
type Encoding = 'browser' | 'identity';

interface RunResult {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/**
 * wrk in its own process, one thread (the server gets the other core): a Lua script cycles over
 * the page URLs and prints its totals and latency percentiles as JSON from wrk's `done` callback.
 */
function runWrk(port: number, urls: string[], duration: number, encoding: Encoding): Promise<RunResult> {
  const script = path.join(work, `wrk-${encoding}.lua`);
  fs.writeFileSync(
    script,
    `local paths = { ${urls.map((u) => JSON.stringify(u)).join(', ')} }
local i = 0
${encoding === 'browser' ? `wrk.headers["Accept-Encoding"] = "${BROWSER_ENCODINGS}"\n` : ''}wrk.headers["User-Agent"] = "site-bench"
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nRESULT {"requests":%d,"us":%d,"p50":%d,"p99":%d,"errors":%d,"non2xx":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
`,
  );
  return new Promise((resolve, reject) => {
    const proc = spawn(WRK!, ['-t1', `-c${CONNECTIONS}`, `-d${duration}s`, '--timeout', '5s', '-s', script, `http://127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const line = /^RESULT (.*)$/m.exec(out)?.[1];
      if (code !== 0 || !line) return reject(new Error(`wrk exited with ${code}: ${out}`));
      const r = JSON.parse(line) as { requests: number; us: number; p50: number; p99: number; errors: number; non2xx: number };
      resolve({ requests: r.requests, seconds: r.us / 1e6, p50: r.p50 / 1000, p99: r.p99 / 1000, errors: r.errors, non2xx: r.non2xx });
    });
  });
}

/** Fallback: autocannon inside this process (it then shares the CPU with the servers). */
async function runAutocannon(port: number, urls: string[], duration: number, encoding: Encoding): Promise<RunResult> {
  const headers: Record<string, string> = encoding === 'browser' ? { 'accept-encoding': BROWSER_ENCODINGS } : {};
  const requests = urls.map((p) => ({ method: 'GET' as const, path: p, headers }));
  const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration, requests });
  return { requests: r.requests.total, seconds: duration, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

async function load(port: number, allUrls: string[], pid: number | undefined, encoding: Encoding): Promise<LoadResult> {
  const urls = allUrls.slice(0, 500);
  const run = (duration: number) => (WRK ? runWrk(port, urls, duration, encoding) : runAutocannon(port, urls, duration, encoding));
  await prime(port, urls, encoding); // every URL once: files read, compressed variants made
  await run(2); // warm-up: JIT, keep-alive sockets
  const before = pid ? cpuTimes(pid) : undefined;
  const r = await run(DURATION);
  const after = pid ? cpuTimes(pid) : undefined;
  const used = before && after ? { user: after.user - before.user, sys: after.sys - before.sys } : undefined;
  const cpu = used && used.user + used.sys;
  return {
    rps: r.requests / r.seconds,
    p99: r.p99,
    p50: r.p50,
    errors: r.errors,
    non2xx: r.non2xx,
    perCpuSecond: cpu ? r.requests / cpu : undefined,
    userUs: used && r.requests ? (used.user / r.requests) * 1e6 : undefined,
    sysUs: used && r.requests ? (used.sys / r.requests) * 1e6 : undefined,
    load: os.loadavg()[0]!,
  };
}

/** Request every URL once, a few at a time, so no timed request waits for a first compression. */
async function prime(port: number, urls: string[], encoding: Encoding): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const headers = encoding === 'browser' ? { 'accept-encoding': BROWSER_ENCODINGS } : {};
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const u = urls[next++]!;
      await new Promise<void>((resolve, reject) => http.get({ host: '127.0.0.1', port, path: u, agent, headers }, (res) => res.resume().on('end', resolve)).on('error', reject));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  agent.destroy();
}

/** Both encodings against one running server. */
type Pair = Record<Encoding, LoadResult>;
const ENCODINGS: Encoding[] = ['browser', 'identity'];

/** The appliance loads the same zip itself (pinned version, extracted into its own state dir), as in production. */
async function applianceRps(siteDir: string, zip: string, version: string, capture: string): Promise<Pair> {
  const port = await freePort();
  const stateDir = path.join(work, 'rps-state');
  const config = path.join(work, 'rps-config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({ stateDir, admin: { port: 0, host: '127.0.0.1' }, site: { port, host: '127.0.0.1' }, organizations: [{ id: 'bench', name: 'Bench' }], staticExport: { enabled: true, bundleUrl: zip, version } }),
  );
  const logFd = fs.openSync(path.join(work, 'serve.log'), 'w');
  const prof = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(args['cpu-prof'])] : [];
  const proc: ChildProcess = spawn(process.execPath, [...prof, '--import', 'tsx', path.join(root, 'app/cli.ts'), 'serve', '--config', config], { stdio: ['ignore', logFd, logFd], env: { ...process.env, DOCS_APPLIANCE_CONFIG: '' } });
  try {
    await waitFor(`http://127.0.0.1:${port}${urlsFor(siteDir)[0]}`);
    const result = {} as Pair;
    for (const e of ENCODINGS) result[e] = await load(port, urlsFor(siteDir), proc.pid, e);
    await captureAnswers(port, urlsFor(siteDir).slice(0, 500), capture);
    return result;
  } catch (err) {
    console.log(fs.readFileSync(path.join(work, 'serve.log'), 'utf8').split('\n').slice(-20).join('\n'));
    throw err;
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    fs.closeSync(logFd);
  }
}

/** Headers Node's http module writes itself (or that describe the connection, not the answer). */
const NODE_OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * The appliance's answer to every bench URL, per variant (browser headers → br, identity): the
 * raw header list as it was sent (names' case and order kept, the request id as one fixed value)
 * and the body, for the node floor to send back unchanged.
 */
async function captureAnswers(port: number, urls: string[], file: string): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const out: Record<string, Record<string, [string[], string]>> = {};
  for (const u of urls) {
    for (const e of ENCODINGS) {
      const headers = e === 'browser' ? { 'accept-encoding': BROWSER_ENCODINGS, 'user-agent': 'site-bench' } : { 'user-agent': 'site-bench' };
      const [raw, body, encoding] = await new Promise<[string[], Buffer, string]>((resolve, reject) =>
        http
          .get({ host: '127.0.0.1', port, path: u, agent, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => (res.statusCode === 200 ? resolve([res.rawHeaders, Buffer.concat(chunks), String(res.headers['content-encoding'] ?? 'identity')]) : reject(new Error(`${u}: ${res.statusCode}`))));
          })
          .on('error', reject),
      );
      const list: string[] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) if (!NODE_OWN_HEADERS.has(raw[i]!.toLowerCase())) list.push(raw[i]!, raw[i + 1]!);
      (out[u] ??= {})[encoding] = [list, body.toString('base64')];
    }
  }
  agent.destroy();
  fs.writeFileSync(file, JSON.stringify({ urls: out }));
}

/** Both passes (browser headers, identity) against a server in its own process, once it answers. */
async function measure(port: number, siteDir: string, pid: number | undefined): Promise<Pair> {
  await waitFor(`http://127.0.0.1:${port}${urlsFor(siteDir)[0]}`);
  const result = {} as Pair;
  for (const e of ENCODINGS) result[e] = await load(port, urlsFor(siteDir), pid, e);
  return result;
}

/** The raw Node floor (bench/node-floor.ts) serving the captured answers, in its own process. */
async function nodeFloorRps(siteDir: string, capture: string): Promise<Pair> {
  const port = await freePort();
  const prof = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.join(path.resolve(args['cpu-prof']), 'node-floor')] : [];
  const proc = spawn(process.execPath, [...prof, '--import', 'tsx', path.join(root, 'bench/node-floor.ts'), capture, String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    return await measure(port, siteDir, proc.pid);
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
}

/** Text types nginx's gzip applies to: those the appliance compresses (app/site/mime.ts). */
const NGINX_GZIP_TYPES = 'text/css text/javascript application/javascript application/json application/xml application/manifest+json image/svg+xml text/plain text/markdown';

/**
 * nginx serves a copy of the site with a `.gz` beside every text file of 1 KB or more (gzip
 * level 6, what the appliance keeps in memory): `gzip_static` then costs it nothing per request,
 * as the appliance's cached variants cost it nothing. Debian's nginx has no brotli module, so a
 * browser gets gzip from nginx and brotli from the appliance.
 */
function nginxRoot(siteDir: string): string {
  const dir = path.join(work, 'nginx-root');
  fs.cpSync(siteDir, dir, { recursive: true });
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(html|css|js|json|svg|xml|txt|map)$/.test(e.name) && fs.statSync(p).size >= 1024) fs.writeFileSync(`${p}.gz`, zlib.gzipSync(fs.readFileSync(p), { level: 6 }));
    }
  };
  walk(dir);
  return dir;
}

async function nginxRps(siteDir: string): Promise<Pair | undefined> {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
  if (!nginx) return undefined;
  const port = await freePort();
  const dir = path.join(work, 'nginx');
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  const security = [
    `Content-Security-Policy "default-src 'self'"`,
    'X-Content-Type-Options nosniff',
    'Referrer-Policy strict-origin-when-cross-origin',
    'X-Frame-Options SAMEORIGIN',
    'Cross-Origin-Opener-Policy same-origin',
    'Cross-Origin-Resource-Policy same-origin',
    'Cache-Control no-cache',
  ]
    .map((h) => `add_header ${h} always;`)
    .join(' ');
  fs.writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log ${dir}/logs/access.log combined buffer=64k flush=1s;
  sendfile on; tcp_nopush on; keepalive_requests 100000;
  gzip_static on; gzip on; gzip_comp_level 6; gzip_min_length 1024; gzip_vary on; gzip_types ${NGINX_GZIP_TYPES};
  client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp; uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;
  server {
    listen 127.0.0.1:${port};
    root ${nginxRoot(siteDir)};
    ${security}
    location / { try_files $uri $uri.html $uri/index.html =404; }
  }
}
`,
  );
  const proc = spawn(nginx, ['-p', dir, '-c', conf], { stdio: 'ignore' });
  try {
    // The temp dirs are private (0700): a worker running as nobody could not read them.
    return await measure(port, siteDir, proc.pid);
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
  if (!args['skip-rps']) await throughput();
  if (!args['skip-ready']) await startToReady();
  console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (on ${os.cpus().length} CPUs; figures above ${os.loadavg()[0]! > os.cpus().length ? 'are inflated by other work on this machine' : 'were taken on a quiet machine'})`);
  fs.rmSync(work, { recursive: true, force: true });
}

/** 1. Throughput on a 1,000-page site. */
async function throughput(): Promise<void> {
  const small = await buildBundle(PAGES);
  console.log(`bundle for throughput: ${small.how}, ${(fs.statSync(small.zip).size / 1e6).toFixed(1)} MB`);
  // Extracted once by the loader itself; both servers serve this same directory.
  const extracted = await loadBundle({
    stateDir: path.join(work, 'extract-state'),
    bundleUrl: small.zip,
    limits: { maxEntries: 1_000_000, maxUncompressedBytes: 8 * 1024 ** 3 },
    verifyTimeoutMs: 600_000,
    fetch: { connectTimeoutMs: 1000, totalTimeoutMs: 60_000, retries: 0, maxBytes: 8 * 1024 ** 3, backoffMs: 100 },
    log: createLogger('warn'),
  });
  const siteDir = extracted.dir;
  urlCache.set(siteDir, small.pageUrls);
  console.log(
    WRK
      ? `load generator: ${WRK} (own process, 1 thread), ${CONNECTIONS} connections, ${DURATION} s after a 2 s warm-up, cycling over ${Math.min(500, small.pageUrls.length)} extensionless page URLs`
      : `load generator: autocannon inside this process (wrk not found${args.autocannon ? ' or --autocannon given' : ''}: it competes with the server for the CPU, so figures are low for both servers)`,
  );
  console.log(`appliance: \`serve\` in its own process, loading the same zip itself (pinned version, not mounted); cache-hit path; brotli (quality 5) / gzip (level 6) variants computed once per file and kept in memory`);
  const capture = path.join(work, 'appliance-answers.json');
  const ours = await applianceRps(siteDir, small.zip, small.version, capture);
  console.log(`node floor: bare http.createServer in its own process, the appliance's captured bytes and headers per URL and variant (bench/node-floor.ts)`);
  const floor = await nodeFloorRps(siteDir, capture);
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
  if (nginx) console.log(`nginx: 1 worker, sendfile, try_files $uri $uri.html $uri/index.html, gzip_static on .gz files made at level 6 (gzip on at level 6 otherwise; no brotli module), the same security headers (add_header), access log buffered 64 KB`);
  const theirs = await nginxRps(siteDir);
  const header = `${'server'.padEnd(34)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(8)} ${'req/CPU-s'.padStart(10)} ${'user µs'.padStart(7)} ${'sys µs'.padStart(7)} ${'load'.padStart(5)}`;
  const row = (name: string, r: LoadResult) =>
    `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.errors + r.non2xx).padStart(8)} ${(r.perCpuSecond?.toFixed(0) ?? 'n/a').padStart(10)} ${(r.userUs?.toFixed(1) ?? 'n/a').padStart(7)} ${(r.sysUs?.toFixed(1) ?? 'n/a').padStart(7)} ${r.load.toFixed(1).padStart(5)}`;
  console.log(`\nthroughput: ${CONNECTIONS} connections, ${DURATION} s`);
  console.log(header);
  for (const e of ENCODINGS) {
    const label = e === 'browser' ? `Accept-Encoding: ${BROWSER_ENCODINGS}` : 'identity';
    console.log(row(`appliance, ${label === 'identity' ? 'identity' : 'browser (br)'}`, ours[e]));
    console.log(row(`node floor, ${label === 'identity' ? 'identity' : 'browser (br)'}`, floor[e]));
    if (theirs) console.log(row(`nginx, ${label === 'identity' ? 'identity' : 'browser (gzip)'}`, theirs[e]));
  }
  const ratios = (a: LoadResult, b: LoadResult) => `req/s ${(a.rps / b.rps).toFixed(2)}, per CPU-second ${a.perCpuSecond && b.perCpuSecond ? (a.perCpuSecond / b.perCpuSecond).toFixed(2) : 'n/a'}`;
  console.log('');
  for (const e of ENCODINGS) console.log(`${e}: appliance / node floor: ${ratios(ours[e], floor[e])}; p99 ${ours[e].p99.toFixed(2)} vs ${floor[e].p99.toFixed(2)} ms`);
  if (!theirs) {
    console.log('nginx not installed: no nginx baseline in this run');
    return;
  }
  for (const e of ENCODINGS) console.log(`${e}: node floor / nginx: ${ratios(floor[e], theirs[e])}`);
  // Issue 43, target 1: at least nginx's requests per CPU-second with a browser's headers, p99 < 5 ms.
  for (const e of ENCODINGS) {
    const perCpu = ours[e].perCpuSecond && theirs[e].perCpuSecond ? ours[e].perCpuSecond! / theirs[e].perCpuSecond! : undefined;
    console.log(
      `${e}: appliance / nginx: ${ratios(ours[e], theirs[e])}` +
        (e === 'browser' ? ` (target per CPU-second >= 1.0: ${perCpu !== undefined && perCpu >= 1 ? 'met' : 'NOT met'})` : '') +
        `; appliance p99 ${ours[e].p99.toFixed(2)} ms (target < 5 ms: ${ours[e].p99 < 5 ? 'met' : 'NOT met'})`,
    );
  }
}

/** 2. Start-to-ready on a 10,000-page bundle. */
async function startToReady(): Promise<void> {
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
}

main().catch((err: unknown) => {
  console.error(err);
  fs.rmSync(work, { recursive: true, force: true });
  process.exitCode = 1;
});
