import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { ExportJobStatus } from '../data/stores/export-jobs.js';
import { generateSite } from './gen-pages.js';

/**
 * Static export through the API against the renderer's own CLI export, in the same run:
 *
 * 1. For the 475-page corpus (pipecat-docs, from --corpora) and a generated site (--pages,
 *    default 10,000): wall time of `docs-appliance export <dir> --out x.zip` (a fresh process,
 *    as an operator runs it) beside the time from `POST /v1/static-export/jobs` to the bundle
 *    downloaded through its signed link, against `docs-appliance serve` running in its own
 *    process (as in production). The API's overhead is their ratio.
 * 2. 200 pollers of `GET /v1/static-export/jobs/{id}` while the largest export runs: paced at
 *    --poll-rate requests per second each (default 1: a client polling once a second), each on its
 *    own connection from a random starting phase; then unpaced with autocannon (as fast as each
 *    connection can go: a saturation figure, where latency is mostly the queue of 200 requests in
 *    flight); both again with no export running. --skip-timing measures only the pollers.
 *
 *   node --import tsx bench/static-export.bench.ts [--corpora /work/shared/corpora] [--pages 10000]
 *     [--runs 1] [--pollers 200] [--poll-rate 1] [--threads N] [--skip-timing] [--keep]
 */

const { values } = parseArgs({
  options: {
    corpora: { type: 'string' },
    pages: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '1' },
    pollers: { type: 'string', default: '200' },
    'poll-rate': { type: 'string', default: '1' },
    'skip-timing': { type: 'boolean', default: false },
    threads: { type: 'string', default: '0' },
    keep: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs));
const pollers = Number(values.pollers);
const pollRate = Number(values['poll-rate']);
const threads = Number(values.threads);
const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'app', 'cli.ts');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-static-export-'));
const MB = 1024 * 1024;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmtS = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Input {
  name: string;
  dir: string;
  domain: string;
  projectId: string;
}

const inputs: Input[] = [];
const corporaDir = values.corpora ?? (fs.existsSync('/work/shared/corpora') ? '/work/shared/corpora' : undefined);
const pipecat = corporaDir ? path.join(corporaDir, 'pipecat-docs') : undefined;
if (pipecat && fs.existsSync(path.join(pipecat, 'docs.json'))) {
  inputs.push({ name: 'pipecat-docs (corpus)', dir: pipecat, domain: 'pipecat.bench.internal', projectId: 'a'.repeat(24) });
} else {
  console.log('pipecat-docs not found (pass --corpora DIR): measuring the generated site only');
}
const pages = Number(values.pages);
if (pages > 0) {
  const dir = path.join(work, `generated-${pages}`);
  const t0 = performance.now();
  generateSite(dir, pages);
  console.log(`generated ${pages} pages in ${fmtS(performance.now() - t0)}`);
  inputs.push({ name: `generated ${pages}`, dir, domain: 'generated.bench.internal', projectId: 'b'.repeat(24) });
}

/** A free TCP port, for the server's config (its log is not needed to find it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function runProcess(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

/** The renderer's CLI export, a fresh process as an operator runs it. */
async function cliExport(input: Input): Promise<{ ms: number; bytes: number }> {
  const out = path.join(work, 'cli.zip');
  fs.rmSync(out, { force: true });
  const ms = await runProcess([cli, 'export', input.dir, '--out', out, '--domain', input.domain, ...(threads > 0 ? ['--threads', String(threads)] : [])]);
  return { ms, bytes: fs.statSync(out).size };
}

interface Server {
  base: string;
  key: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startServer(): Promise<Server> {
  const stateDir = fs.mkdtempSync(path.join(work, 'state-'));
  const [adminPort, sitePort] = [await freePort(), await freePort()];
  const config = {
    stateDir,
    admin: { port: adminPort, host: '127.0.0.1' },
    site: { port: sitePort, host: '127.0.0.1' },
    log: { level: 'info' },
    renderer: { threads },
    organizations: [{ id: 'bench', name: 'Bench', plan: 'enterprise' }],
    // Never a single project: on a first start with one project, the site feature exports it to
    // serve it, on the main thread, which would be measured as the API's cost.
    projects: [
      ...inputs.map((i) => ({ id: i.projectId, orgId: 'bench', name: i.name, domain: i.domain, sourceDir: i.dir })),
      { id: 'c'.repeat(24), orgId: 'bench', name: 'placeholder', domain: 'placeholder.bench.internal', sourceDir: work },
    ],
  };
  const configFile = path.join(stateDir, 'config.json');
  fs.writeFileSync(configFile, JSON.stringify(config));
  // The access log goes to a file, as a production log shipper would take it; the pipe is not
  // what is being measured.
  const logFd = fs.openSync(path.join(stateDir, 'server.log'), 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--config', configFile], { cwd: root, stdio: ['ignore', logFd, logFd] });
  const base = `http://127.0.0.1:${adminPort}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null || i > 300) throw new Error(`server did not start; see ${path.join(stateDir, 'server.log')}`);
    await sleep(100);
  }
  const key = fs.readFileSync(path.join(stateDir, 'initial-admin-key'), 'utf8').trim();
  return {
    base,
    key,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

interface Job {
  jobId: string;
  status: ExportJobStatus;
  progress: number;
  pageCount: number;
  error?: string;
}

async function api<T>(server: Server, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.base}${url}`, {
    method,
    headers: { Authorization: `Bearer ${server.key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** POST → poll every 50 ms until completed → bundle → download through the signed link. */
async function apiExport(server: Server, input: Input): Promise<{ ms: number; bytes: number; pageCount: number }> {
  const t0 = performance.now();
  const started = await api<Job>(server, 'POST', '/v1/static-export/jobs', { domain: input.domain });
  let job = started;
  while (job.status === 'queued' || job.status === 'running') {
    await sleep(50);
    job = await api<Job>(server, 'GET', `/v1/static-export/jobs/${started.jobId}`);
  }
  if (job.status !== 'completed') throw new Error(`export failed: ${job.error}`);
  const bundle = await api<{ bundleUrl: string; sizeBytes: number }>(server, 'POST', `/v1/static-export/jobs/${started.jobId}/bundle`, { format: 'zip' });
  const res = await fetch(bundle.bundleUrl);
  if (!res.ok || !res.body) throw new Error(`download: ${res.status}`);
  const out = path.join(work, 'api.zip');
  await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), fs.createWriteStream(out));
  const ms = performance.now() - t0;
  const bytes = fs.statSync(out).size;
  if (bytes !== bundle.sizeBytes) throw new Error(`downloaded ${bytes} bytes, bundle says ${bundle.sizeBytes}`);
  return { ms, bytes, pageCount: job.pageCount };
}

/** CPU time (ms) the server process has used so far, from /proc (Linux); undefined elsewhere. */
function processCpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

interface PollFigures {
  label: string;
  /** Server CPU per request (ms): a figure the machine's other load hardly changes (idle rows only). */
  cpuPerRequest?: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

/** autocannon against GET /jobs/{id}: until `until` resolves, or for `seconds`. */
function poll(server: Server, jobId: string, label: string, opts: { rate?: number; seconds?: number; until?: Promise<unknown> }): Promise<PollFigures> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${server.base}/v1/static-export/jobs/${jobId}`,
        connections: pollers,
        ...(opts.rate ? { connectionRate: opts.rate } : {}),
        duration: opts.seconds ?? 3600,
        headers: { authorization: `Bearer ${server.key}` },
      },
      (err, r) => {
        if (err) return reject(err);
        resolve({
          label,
          requests: r.requests.total,
          rps: Math.round(r.requests.average),
          p50: r.latency.p50,
          p90: r.latency.p90,
          p99: r.latency.p99,
          max: r.latency.max,
          non2xx: r.non2xx,
          errors: r.errors,
        });
      },
    );
    opts.until?.then(() => instance.stop(), () => instance.stop());
  });
}

/**
 * `pollers` clients, each on its own keep-alive connection, each polling every 1/rate s from a
 * random starting phase: pollers that started at different moments, as real clients do (autocannon
 * paces every connection on the same tick, so all of them would fire in one burst each second).
 */
async function pacedPollers(server: Server, jobId: string, label: string, opts: { rate: number; seconds?: number; until?: Promise<unknown> }): Promise<PollFigures> {
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let stop = false;
  const t0 = performance.now();
  const timer = opts.seconds ? setTimeout(() => (stop = true), opts.seconds * 1000) : undefined;
  void opts.until?.then(() => (stop = true), () => (stop = true));
  const interval = 1000 / opts.rate;
  const one = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await sleep(Math.random() * interval);
    let next = performance.now();
    while (!stop) {
      const started = performance.now();
      try {
        const status = await new Promise<number>((resolve, reject) => {
          http
            .get(`${server.base}/v1/static-export/jobs/${jobId}`, { agent, headers: { authorization: `Bearer ${server.key}` } }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            })
            .on('error', reject);
        });
        latencies.push(performance.now() - started);
        if (status < 200 || status > 299) non2xx++;
      } catch {
        errors++;
      }
      next += interval;
      await sleep(Math.max(0, next - performance.now()));
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: pollers }, one));
  if (timer) clearTimeout(timer);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 100) / 100;
  return {
    label,
    requests: latencies.length,
    rps: Math.round(latencies.length / ((performance.now() - t0) / 1000)),
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: at(1),
    non2xx,
    errors,
  };
}

async function waitFor(server: Server, jobId: string, done: (j: Job) => boolean): Promise<Job> {
  for (;;) {
    const j = await api<Job>(server, 'GET', `/v1/static-export/jobs/${jobId}`);
    if (done(j)) return j;
    await sleep(100);
  }
}

const rows: string[][] = [];
const pollRows: PollFigures[] = [];
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`machine: ${os.cpus().length} cores, Node ${process.version}; render threads ${threads || 'auto'}; runs ${runs}; load average ${load()}`);
for (const input of values['skip-timing'] ? [] : inputs) {
  const cliTimes: number[] = [];
  const apiTimes: number[] = [];
  let cliBytes = 0;
  let apiBytes = 0;
  let pageCount = 0;
  for (let r = 0; r < runs; r++) {
    const c = await cliExport(input);
    cliTimes.push(c.ms);
    cliBytes = c.bytes;
    // A fresh server per run: its render pool starts cold, as the CLI's does.
    const server = await startServer();
    try {
      const a = await apiExport(server, input);
      apiTimes.push(a.ms);
      apiBytes = a.bytes;
      pageCount = a.pageCount;
    } finally {
      await server.stop();
    }
    console.log(`${input.name} run ${r + 1}: CLI ${fmtS(c.ms)}, API ${fmtS(apiTimes[apiTimes.length - 1]!)}`);
  }
  const cliMs = median(cliTimes);
  const apiMs = median(apiTimes);
  rows.push([
    input.name,
    String(pageCount),
    fmtS(cliMs),
    fmtS(apiMs),
    `${(apiMs / cliMs).toFixed(3)}`,
    `${((apiMs / cliMs - 1) * 100).toFixed(1)} %`,
    `${(cliBytes / MB).toFixed(1)} / ${(apiBytes / MB).toFixed(1)} MB`,
  ]);
}

// Pollers while the largest input exports (a server of its own, so the figures are not mixed
// with the timing runs above).
const largest = inputs[inputs.length - 1];
if (largest && pollers > 0) {
  const server = await startServer();
  try {
    // Idle baselines on a completed job of the small site, then the same while an export runs.
    const first = await api<Job>(server, 'POST', '/v1/static-export/jobs', { domain: largest.domain });
    await waitFor(server, first.jobId, (j) => j.status === 'completed' || j.status === 'failed');
    for (const paced of [true, false]) {
      const cpu0 = processCpuMs(server.child.pid);
      const figures = paced
        ? await pacedPollers(server, first.jobId, `idle, ${pollRate}/s each`, { rate: pollRate, seconds: 10 })
        : await poll(server, first.jobId, 'idle, unpaced (autocannon)', { seconds: 10 });
      const cpu1 = processCpuMs(server.child.pid);
      if (cpu0 !== undefined && cpu1 !== undefined) figures.cpuPerRequest = (cpu1 - cpu0) / figures.requests;
      pollRows.push(figures);
    }
    for (const paced of [true, false]) {
      const job = await api<Job>(server, 'POST', '/v1/static-export/jobs', { domain: largest.domain });
      await waitFor(server, job.jobId, (j) => j.status === 'running');
      const finished = waitFor(server, job.jobId, (j) => j.status === 'completed' || j.status === 'failed');
      const label = `during export (${largest.name}), ${paced ? `${pollRate}/s each` : 'unpaced (autocannon)'}`;
      const t0 = performance.now();
      pollRows.push(paced ? await pacedPollers(server, job.jobId, label, { rate: pollRate, until: finished }) : await poll(server, job.jobId, label, { until: finished }));
      const end = await finished;
      console.log(`${label}: export ${end.status} in ${fmtS(performance.now() - t0)} (from first poll)`);
    }
  } finally {
    await server.stop();
  }
}

const table = (head: string[], body: string[][]) => {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
};
console.log('\nPOST → downloaded bundle, against the CLI export of the same input (medians):\n');
console.log(table(['input', 'pages', 'CLI export', 'API export', 'ratio', 'overhead', 'zip CLI / API'], rows));
console.log('\nTarget: overhead ≤ 10 %.');
if (pollRows.length) {
  console.log(`\n${pollers} pollers of GET /v1/static-export/jobs/{id} (latency in ms):\n`);
  console.log(
    table(
      ['situation', 'requests', 'req/s', 'p50', 'p90', 'p99', 'max', 'non-2xx', 'errors', 'server CPU/req'],
      pollRows.map((p) => [
        p.label,
        String(p.requests),
        String(p.rps),
        String(p.p50),
        String(p.p90),
        String(p.p99),
        String(p.max),
        String(p.non2xx),
        String(p.errors),
        p.cpuPerRequest === undefined ? '' : `${p.cpuPerRequest.toFixed(3)} ms`,
      ]),
    ),
  );
  console.log('\nTarget: p99 < 20 ms while an export runs.');
}
console.log(`\nload average at the end: ${load()} (other work on the machine inflates every figure)`);
if (!values.keep) fs.rmSync(work, { recursive: true, force: true });
else console.log(`\nkept ${work}`);
