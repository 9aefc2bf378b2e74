import { cliCommand } from '../helpers/cli-entry.js';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Start the real CLI (`serve`) on ephemeral ports and wait for its "listening" line. */
async function startServer(stateDir: string): Promise<{ child: ChildProcess; adminPort: number; lines: string[] }> {
  const child = spawn(process.execPath, [...cliCommand(), 'serve'], {
    cwd: root,
    env: { ...process.env, DOCS_APPLIANCE_STATE_DIR: stateDir, DOCS_APPLIANCE_ADMIN_PORT: '0', DOCS_APPLIANCE_SITE_PORT: '0', DOCS_APPLIANCE_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const rl = readline.createInterface({ input: child.stdout! });
  child.stderr!.on('data', (c: Buffer) => lines.push(c.toString()));
  const adminPort = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start:\n' + lines.join('\n'))), 20_000);
    rl.on('line', (line) => {
      lines.push(line);
      try {
        const entry = JSON.parse(line) as { msg?: string; adminPort?: number };
        if (entry.msg === 'listening') {
          clearTimeout(timer);
          resolve(entry.adminPort!);
        }
      } catch {
        /* not JSON */
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${lines.join('\n')}`)));
  });
  return { child, adminPort, lines };
}

describe('SIGTERM', () => {
  it('lets an in-flight request finish, then closes everything and exits 0', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigterm-'));
    const { child, adminPort, lines } = await startServer(stateDir);
    const key = fs.readFileSync(path.join(stateDir, 'initial-admin-key'), 'utf8').trim();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    // A request whose body is still arriving when the signal comes.
    const body = JSON.stringify({ prompt: 'hello' });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { port: adminPort, host: '127.0.0.1', method: 'POST', path: '/v2/agent/000000000000000000000000/job', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(5)), 400);
      }, 200);
    });

    const res = await response;
    expect(res.status).toBe(404);
    // The request was answered in full (the unknown project makes it a JSON 404).
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String) });
    expect(await exited).toBe(0);
    const log = lines.join('\n');
    expect(log).toMatch(/"reason":"SIGTERM".*shutting down/);
    expect(log).toMatch(/"msg":"stopped"/);
    // The database was closed cleanly: no WAL left to replay.
    expect(fs.existsSync(path.join(stateDir, 'docs-appliance.db-wal'))).toBe(false);
  });
});

describe('SIGTERM during start-up', () => {
  it('is kept and honoured as a graceful stop once the start ends: exit 0, never the default handler’s kill', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigterm-early-'));
    const child = spawn(process.execPath, [...cliCommand(), 'serve'], {
      cwd: root,
      env: { ...process.env, DOCS_APPLIANCE_STATE_DIR: stateDir, DOCS_APPLIANCE_ADMIN_PORT: '0', DOCS_APPLIANCE_SITE_PORT: '0', DOCS_APPLIANCE_CONFIG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    child.stderr!.on('data', (c: Buffer) => lines.push(c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    // The first log line comes from inside the start (before any listener): the signal lands mid-start.
    let sent = false;
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!sent) child.kill('SIGTERM');
      sent = true;
      lines.push(line);
    });
    const { code, signal } = await exited;
    expect({ code, signal }, lines.join('\n')).toEqual({ code: 0, signal: null });
    const log = lines.join('\n');
    expect(lines[0]).not.toContain('"msg":"listening"');
    expect(log).toMatch(/"reason":"SIGTERM".*shutting down/);
    expect(log).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(stateDir, 'docs-appliance.db-wal'))).toBe(false);
    fs.rmSync(stateDir, { recursive: true, force: true });
  }, 30_000);
});
