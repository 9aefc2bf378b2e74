/**
 * Incremental publish (issue 43, target 4): a one-page change on a generated site, from the
 * update operation to the new text served by the site listener, Git fetch on loopback included
 * (`git http-backend` behind a CGI bridge, as the publish tests use), against a full export of
 * the same tree measured in the same run (the first publish of the slot, which has no memo).
 *
 *   node --import tsx bench/publish-latency.bench.ts [--pages 1000] [--edits 5] [--threads N]
 *
 * Prints each edit's latency and the status's stage split, the median beside the full publish
 * and the target (< 1 s), and says met or not met.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig } from '../config/load.js';
import { startAppliance } from '../app/appliance.js';
import { createLogger } from '../app/logger.js';
import { startGitHttpServer } from '../test/agent/helpers/git-http-server.js';
import { generateSite } from './gen-pages.js';

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '1000' }, edits: { type: 'string', default: '5' }, threads: { type: 'string' } } });
const PAGES = Number(args.pages);
const EDITS = Number(args.edits);
const PROJECT = 'b0b0b0b0b0b0b0b0b0b0b0b0';
const ORG = 'bench';
const DOMAIN = 'docs.bench.internal';
const TARGET_MS = 1000;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'publish-bench-'));
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.internal', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.internal' } }).trim();

function get(port: number, urlPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers: { host: DOMAIN } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
}

function api(port: number, key: string, method: string, urlPath: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 0) >= 300) return reject(new Error(`${method} ${urlPath}: ${res.statusCode} ${text.slice(0, 300)}`));
        resolve(JSON.parse(text || '{}') as Record<string, unknown>);
      });
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : '{}');
  });
}

async function until<T>(what: () => Promise<T | undefined>, timeoutMs = 300_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function main(): Promise<void> {
  console.log(`publish latency: ${PAGES} generated pages, ${EDITS} one-page edits, ${os.cpus().length} CPUs, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const repo = path.join(work, 'repo');
  generateSite(path.join(repo, 'docs'), PAGES);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'Generated docs');
  const served = path.join(work, 'served');
  fs.mkdirSync(served);
  git(work, 'clone', '-q', '--bare', repo, path.join(served, 'docs.git'));
  git(repo, 'remote', 'add', 'origin', path.join(served, 'docs.git'));
  const gitServer = await startGitHttpServer(served);

  const config = parseConfig(
    {
      stateDir: path.join(work, 'state'),
      admin: { port: 0, host: '127.0.0.1' },
      site: { port: 0, host: '127.0.0.1' },
      log: { level: 'warn' },
      ...(args.threads ? { renderer: { threads: Number(args.threads) } } : {}),
      organizations: [{ id: ORG, name: 'Bench' }],
      projects: [{ id: PROJECT, orgId: ORG, name: 'Bench docs', domain: DOMAIN, repository: gitServer.url(path.join(served, 'docs.git')), branch: 'main', publish: { source: 'git', docsPath: 'docs', poll: false } }],
    },
    { source: 'bench' },
  );
  const appliance = await startAppliance({ config, log: createLogger('warn') });
  const key = appliance.ctx.stores.adminKeys.create({ orgId: ORG, scopes: ['read', 'write'], expiresAt: null }).key;
  const publish = async (): Promise<Record<string, unknown>> => {
    const started = await api(appliance.adminPort, key, 'POST', `/v1/project/update/${PROJECT}`);
    if (typeof started['statusId'] !== 'string') throw new Error(`the update was refused: ${JSON.stringify(started)}`);
    const id = started['statusId'];
    return until(async () => {
      const s = await api(appliance.adminPort, key, 'GET', `/v1/project/update-status/${id}`);
      if (process.env.BENCH_DEBUG) console.log(JSON.stringify(s).slice(0, 300));
      return s['status'] === 'success' || s['status'] === 'failure' ? s : undefined;
    });
  };
  try {
    const first = await publish();
    if (first['status'] !== 'success') throw new Error(`the first publish failed: ${String(first['summary'])}`);
    const fullMs = Number(first['durationMs']);
    console.log(`full publish (first of the slot, no memo): ${fullMs} ms  stages ${JSON.stringify(first['stages'])}`);

    // A page in the middle of the site, its text changed each time.
    const pageFile = path.join(repo, 'docs', 'section-1', 'page-0010.mdx');
    const file = fs.existsSync(pageFile) ? pageFile : findPage(path.join(repo, 'docs'));
    const urlPath = '/' + path.relative(path.join(repo, 'docs'), file).replace(/\.mdx$/, '');
    const latencies: number[] = [];
    for (let i = 1; i <= EDITS; i++) {
      const marker = `Edit number ${i} of the bench`;
      fs.appendFileSync(file, `\n\n${marker}.\n`);
      git(repo, 'commit', '-qam', `Edit ${i}`);
      git(repo, 'push', '-q', 'origin', 'main');
      const t0 = performance.now();
      const started = await api(appliance.adminPort, key, 'POST', `/v1/project/update/${PROJECT}`);
      await until(async () => ((await get(appliance.sitePort, urlPath)).body.includes(marker) ? true : undefined));
      const ms = performance.now() - t0;
      latencies.push(ms);
      const status = await until(async () => {
        const s = await api(appliance.adminPort, key, 'GET', `/v1/project/update-status/${String(started['statusId'])}`);
        return s['endedAt'] ? s : undefined;
      });
      console.log(`edit ${i}: served after ${ms.toFixed(0)} ms  status ${String(status['status'])} ${status['durationMs']} ms  stages ${JSON.stringify(status['stages'])}`);
    }
    const median = [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length / 2)]!;
    console.log(`\none-page change → served, median of ${EDITS}: ${median.toFixed(0)} ms; full publish of the same site: ${fullMs} ms (${(median / fullMs).toFixed(2)}× the full publish)`);
    console.log(`target < ${TARGET_MS} ms: ${median < TARGET_MS ? 'met' : 'NOT met'}`);
    console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await appliance.stop('bench');
    await gitServer.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function findPage(dir: string): string {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) return findPage(abs);
    if (e.name.endsWith('.mdx') && e.name !== 'index.mdx') return abs;
  }
  throw new Error(`no page under ${dir}`);
}

await main();
