import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../loader/helpers/servers.js';
import { bundleFile, raw, rmDir } from './helpers.js';
import { startServe } from './serve-process.js';

let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dir) rmDir(dir);
});

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
