import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/paths.js';
import { tempDir } from '../loader/helpers/servers.js';
import { bundleFile, raw, rmDir } from './helpers.js';

let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dir) rmDir(dir);
});

/** Start `docs-appliance serve` as a real process; resolve with the site port from its log. */
function startServe(configFile: string): Promise<{ proc: ChildProcess; sitePort: number; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(packageRoot(), 'app/cli.ts'), 'serve', '--config', configFile], {
      cwd: packageRoot(),
      env: { ...process.env, DOCS_APPLIANCE_CONFIG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${lines.join('\n')}`)), 20_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        try {
          const entry = JSON.parse(line) as { msg?: string; sitePort?: number };
          if (entry.msg === 'listening' && entry.sitePort) {
            clearTimeout(timer);
            resolve({ proc, sitePort: entry.sitePort, lines });
          }
        } catch {
          // not a log line
        }
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    proc.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${lines.join('\n')}`)));
  });
}

describe('SIGHUP on the real process', () => {
  it('re-rolls to the bundle in the edited config under load, with no failed request, then stops cleanly on SIGTERM', async () => {
    dir = tempDir('sighup-');
    const v1 = bundleFile(dir, 'v1');
    const v2 = bundleFile(dir, 'v2');
    const configFile = path.join(dir, 'config.json');
    const config = (bundleUrl: string) =>
      JSON.stringify({
        stateDir: path.join(dir!, 'state'),
        admin: { port: 0, host: '127.0.0.1' },
        site: { port: 0, host: '127.0.0.1' },
        log: { level: 'info' },
        organizations: [{ id: 'org_a', name: 'A' }],
        staticExport: { enabled: true, bundleUrl },
      });
    fs.writeFileSync(configFile, config(v1));
    const { proc, sitePort, lines } = await startServe(configFile);
    child = proc;

    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const get = () => raw(sitePort, '/guides/intro', { agent });
    const deadline = Date.now() + 10_000;
    while ((await get()).status !== 200) {
      if (Date.now() > deadline) throw new Error(`v1 never served:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    const statuses: number[] = [];
    let sawV2 = false;
    let running = true;
    const worker = async () => {
      while (running) {
        const res = await get();
        statuses.push(res.status);
        if (res.body.toString().includes('Intro v2')) sawV2 = true;
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await new Promise((r) => setTimeout(r, 200));
    fs.writeFileSync(configFile, config(v2));
    proc.kill('SIGHUP');
    const until = Date.now() + 10_000;
    while (!sawV2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    running = false;
    await Promise.all(workers);
    agent.destroy();

    expect(sawV2).toBe(true);
    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(lines.some((l) => l.includes('SIGHUP: reloading'))).toBe(true);

    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 40_000);
});
