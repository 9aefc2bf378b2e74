import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FATAL_EXIT_CODE } from '../../app/fatal.js';
import { packageRoot } from '../../app/paths.js';
import { tempDir } from '../loader/helpers/servers.js';
import { bundleFile, raw, rmDir } from './helpers.js';
import { startServe } from './serve-process.js';

let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dir) rmDir(dir);
  child = dir = undefined;
});

describe('the real process and hostile paths', () => {
  it('stays up after the three requests that used to exit it, and stops with status 0', async () => {
    dir = tempDir('fatal-');
    const configFile = path.join(dir, 'config.json');
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        stateDir: path.join(dir, 'state'),
        admin: { port: 0, host: '127.0.0.1' },
        site: { port: 0, host: '127.0.0.1' },
        log: { level: 'info' },
        organizations: [{ id: 'org_a', name: 'A' }],
        staticExport: { enabled: true, bundleUrl: bundleFile(dir, 'v1') },
      }),
    );
    const { proc, sitePort, lines } = await startServe(configFile);
    child = proc;
    const deadline = Date.now() + 10_000;
    while ((await raw(sitePort, '/')).status !== 200) {
      if (Date.now() > deadline) throw new Error(`v1 never served:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const p of [`/${'a'.repeat(300)}`, '/index.html/', '/manifest.json/x']) {
      expect((await raw(sitePort, p)).status, p).toBe(404);
      expect((await raw(sitePort, p)).status, `${p} (again: the cache-hit path)`).toBe(404);
    }
    expect((await raw(sitePort, '/')).status).toBe(200);
    expect(proc.exitCode).toBe(null);
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 40_000);
});

describe('the last line of defence', () => {
  const run = (fault: string) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `import { installFatalHandlers } from './app/fatal.ts'; import { createLogger } from './app/logger.ts'; installFatalHandlers(createLogger('info')); setTimeout(() => { ${fault} }, 1); setTimeout(() => {}, 5000);`],
      { cwd: packageRoot(), encoding: 'utf8', timeout: 20_000 },
    );

  it(`logs an uncaught exception once at fatal level and exits ${FATAL_EXIT_CODE}`, () => {
    const r = run("throw new Error('escaped fault');");
    expect(r.status).toBe(FATAL_EXIT_CODE);
    const line = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { level: number; msg: string; err: { message: string; stack: string } };
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(/uncaught exception: exiting with status 70/);
    expect(line.err.message).toBe('escaped fault');
    expect(line.err.stack).toContain('Error: escaped fault');
  }, 30_000);

  it(`exits ${FATAL_EXIT_CODE} on an unhandled rejection`, () => {
    const r = run("void Promise.reject(new Error('nobody awaited me'));");
    expect(r.status).toBe(FATAL_EXIT_CODE);
    expect(r.stdout).toMatch(/unhandled promise rejection: exiting with status 70/);
    expect(r.stdout).toContain('nobody awaited me');
  }, 30_000);
});
