import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bundleFile } from '../site/helpers.js';
import { writeGeneratedDocs } from '../static-export/helpers.js';
import { runCliProcess, spawnServe, untilListening, type ServeProcess } from '../helpers/serve-process.js';

/** Enough pages that an export is still rendering while a second `serve` comes and goes. */
const PAGES = 300;
const PROJECT = '65a1f0c2e4b0a1b2c3d4e5f6';
vi.setConfig({ testTimeout: 240_000 });

let root: string;
let source: string;
const running: ServeProcess[] = [];
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'one-serve-'));
  source = writeGeneratedDocs(path.join(root, 'docs'), PAGES);
});
afterEach(() => {
  for (const s of running.splice(0)) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function writeConfig(name: string, stateDir: string, ports: { admin?: number; site?: number } = {}): string {
  const file = path.join(root, `${name}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      stateDir,
      admin: { port: ports.admin ?? 0, host: '127.0.0.1' },
      site: { port: ports.site ?? 0, host: '127.0.0.1' },
      log: { level: 'info' },
      organizations: [{ id: 'org_a', name: 'A', plan: 'enterprise' }],
      projects: [{ id: PROJECT, orgId: 'org_a', name: 'A docs', domain: 'docs.a.internal', sourceDir: source }],
      staticExport: { enabled: true, bundleUrl: bundleFile(root, 'v1') },
      renderer: { threads: 1 },
    }),
  );
  return file;
}

const serve = (configFile: string) => {
  const s = spawnServe(configFile);
  running.push(s);
  return s;
};

async function createKey(configFile: string): Promise<string> {
  const r = await runCliProcess(['keys', 'create', '--org', 'org_a', '--json', '--config', configFile]);
  expect(r.code, r.err).toBe(0);
  return (JSON.parse(r.out) as { key: string }).key;
}

interface Job {
  jobId: string;
  status: string;
  pageCount: number;
}
const api = async (adminPort: number, key: string, method: string, url: string, body?: unknown): Promise<{ status: number; body: Job }> => {
  const res = await fetch(`http://127.0.0.1:${adminPort}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Job };
};
async function pollJob(adminPort: number, key: string, jobId: string, until: (j: Job) => boolean): Promise<Job> {
  for (;;) {
    const { body } = await api(adminPort, key, 'GET', `/v1/static-export/jobs/${jobId}`);
    if (until(body)) return body;
    if (body.status === 'failed') throw new Error(`job failed: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
async function startRunningExport(adminPort: number, key: string): Promise<string> {
  const started = await api(adminPort, key, 'POST', '/v1/static-export/jobs', { domain: 'docs.a.internal' });
  expect(started.status).toBe(202);
  await pollJob(adminPort, key, started.body.jobId, (j) => j.status === 'running' && j.pageCount > 0);
  return started.body.jobId;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('one serve per state directory', () => {
  it('a second serve exits non-zero without touching the first one’s job; keys create and sites rollback work beside it', async () => {
    const configFile = writeConfig('live', path.join(root, 'state-live'));
    const first = serve(configFile);
    const { adminPort } = await untilListening(first);

    const key = await createKey(configFile);
    const jobId = await startRunningExport(adminPort, key);

    const second = serve(configFile);
    const began = Date.now();
    expect(await second.exited).toBe(1);
    const refusal = second.lines.join('\n');
    expect(refusal).toContain('"code":"STATE_LOCKED"');
    expect(refusal).toContain('Another docs-appliance serve is running on this state directory');
    // Refused before it opened the database: no recovery, no cron, no listener.
    expect(refusal).not.toMatch(/database open|cron started|listening|interrupted/);
    // The first one's export was running when the second started and is untouched by it (on a
    // fast machine it may already have finished by now; either way it was never re-queued)...
    expect(['running', 'completed']).toContain((await api(adminPort, key, 'GET', `/v1/static-export/jobs/${jobId}`)).body.status);
    expect(Date.now() - began).toBeLessThan(30_000);

    // ...and ran to the end, never restarted.
    const done = await pollJob(adminPort, key, jobId, (j) => j.status === 'completed');
    expect(done.pageCount).toBe(PAGES);
    expect(first.lines.join('\n')).not.toMatch(/interrupted/);

    // The CLI commands that share the state directory with a live serve still work.
    const list = await runCliProcess(['sites', 'list', '--json', '--config', configFile]);
    expect(list.code, list.err).toBe(0);
    expect((JSON.parse(list.out) as { versions: { version: string }[] }).versions.map((v) => v.version)).toContain('v1');
    const rollback = await runCliProcess(['sites', 'rollback', 'v1', '--config', configFile]);
    expect(rollback.code, rollback.err).toBe(0);
    expect(rollback.out).toContain('Active site is now v1');
    const another = await createKey(configFile);
    expect((await api(adminPort, another, 'GET', `/v1/static-export/jobs/${jobId}`)).status).toBe(200);

    // A graceful stop releases the lock: the next serve starts.
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const next = serve(configFile);
    await untilListening(next);
    next.proc.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });

  it('after kill -9 the lock is not stale; a port conflict exits non-zero before recovering the job the crash left', async () => {
    const stateDir = path.join(root, 'state-crash');
    const configFile = writeConfig('crash', stateDir);
    const crashed = serve(configFile);
    const { adminPort } = await untilListening(crashed);
    const key = await createKey(configFile);
    const jobId = await startRunningExport(adminPort, key);
    crashed.proc.kill('SIGKILL');
    await crashed.exited;

    // The admin port is taken by someone else: the start fails fast and leaves the job alone.
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      const conflicted = serve(writeConfig('conflict', stateDir, { admin: taken }));
      expect(await conflicted.exited).toBe(1);
      const log = conflicted.lines.join('\n');
      expect(log).toContain('"code":"EADDRINUSE"');
      expect(log).toContain(`The admin listener cannot listen on 127.0.0.1:${taken}`);
      expect(log).not.toMatch(/cron started|interrupted|export started|"msg":"listening"/);
    } finally {
      await new Promise((r) => blocker.close(r));
    }

    // The next start takes over the lock the killed process held, and is the one that recovers the job.
    const next = serve(configFile);
    const { adminPort: port } = await untilListening(next);
    expect(next.lines.join('\n')).toContain('export was interrupted by a stop of the process; queued to run again from the beginning');
    const done = await pollJob(port, key, jobId, (j) => j.status === 'completed');
    expect(done.pageCount).toBe(PAGES);
    next.proc.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });

  it('admin.port equal to site.port exits non-zero and says so', async () => {
    const port = await freePort();
    const s = serve(writeConfig('same-port', path.join(root, 'state-same'), { admin: port, site: port }));
    expect(await s.exited).toBe(1);
    const log = s.lines.join('\n');
    expect(log).toContain(`The site listener cannot listen on 127.0.0.1:${port}`);
    expect(log).toContain(`admin.port and site.port are both ${port}`);
    expect(log).not.toMatch(/cron started|"msg":"listening"/);
  });
});
