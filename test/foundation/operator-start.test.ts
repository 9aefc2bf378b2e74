import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTinyDocs } from '../helpers/appliance.js';
import { runCliProcess, spawnServe, untilListening, type ServeProcess } from '../helpers/serve-process.js';

/*
 * What an operator sees when `serve` starts: the log (JSON when standard output is not a terminal,
 * human lines with log.format "pretty"), the line that says where everything is, and start-up and
 * config errors that name the fix. All through the real CLI process.
 */

let running: ServeProcess[] = [];
let dir: string | undefined;
afterEach(() => {
  for (const s of running) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  running = [];
  dir = undefined;
});

const tmp = () => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'operator-start-')));
const writeConfig = (name: string, value: unknown): string => {
  const file = path.join(dir!, `${name}.json`);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
};
const serve = (configFile: string) => {
  const s = spawnServe(configFile);
  running.push(s);
  return s;
};
const local = { admin: { port: 0, host: '127.0.0.1' }, site: { port: 0, host: '127.0.0.1' } };

/** Resolve with the first line matching `re`; reject when the process exits first or after `ms`. */
async function untilLine(s: ServeProcess, re: RegExp, ms = 60_000): Promise<string> {
  const deadline = Date.now() + ms;
  let exited = false;
  void s.exited.then(() => (exited = true));
  for (;;) {
    const line = s.lines.find((l) => re.test(l));
    if (line !== undefined) return line;
    if (exited || Date.now() > deadline) throw new Error(`no line matching ${re}${exited ? ' before the process exited' : ''}:\n${s.lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The exported site is verified and extracted after the "exported" line: poll until it is served. */
async function untilServed(url: string, ms = 30_000): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { status } = await fetch(url);
    if (status !== 503 || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface ListeningLine {
  msg: string;
  siteUrl: string;
  adminUrl: string;
  consoleUrl?: string;
  initialKeyFile?: string;
}

describe('serve: the log an operator reads', () => {
  it('is JSON lines when standard output is not a terminal; the listening line carries the site, admin API and console URLs and the initial key file', async () => {
    const stateDir = path.join(tmp(), 'state');
    const configFile = writeConfig('first', { stateDir, ...local, log: { level: 'info' } });
    const first = serve(configFile);
    const { adminPort, sitePort } = await untilListening(first);
    const line = JSON.parse(first.lines.find((l) => l.includes('"msg":"listening"'))!) as ListeningLine;
    expect(line).toMatchObject({
      siteUrl: `http://127.0.0.1:${sitePort}/`,
      adminUrl: `http://127.0.0.1:${adminPort}/`,
      consoleUrl: `http://127.0.0.1:${adminPort}/console`,
      initialKeyFile: path.join(stateDir, 'initial-admin-key'),
    });
    // The URLs are the ones that answer.
    expect((await fetch(`${line.adminUrl}healthz`)).status).toBe(200);
    const toConsole = await fetch(line.adminUrl, { headers: { accept: 'text/html' }, redirect: 'manual' });
    expect(toConsole.status).toBe(302);
    expect(toConsole.headers.get('location')).toBe('/console');
    // The first start exports the bundled example, and says so.
    await untilLine(first, /"msg":"first start: exported the example docs"/);
    expect(await untilServed(line.siteUrl)).toBe(200);
    const stdout = first.lines.filter((l) => !l.includes('NODE_END_OF_LIFE'));
    for (const l of stdout) expect(() => JSON.parse(l), l).not.toThrow();
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // Once the operator has deleted the key file, the line no longer points at it.
    fs.rmSync(path.join(stateDir, 'initial-admin-key'));
    const next = serve(configFile);
    await untilListening(next);
    const again = JSON.parse(next.lines.find((l) => l.includes('"msg":"listening"'))!) as ListeningLine;
    expect(again.siteUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(again).not.toHaveProperty('initialKeyFile');
    next.proc.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });

  it('is human lines with log.format "pretty", and the first start names the operator\'s own project it exported', async () => {
    const root = tmp();
    const sourceDir = writeTinyDocs(path.join(root, 'my-docs'));
    const configFile = writeConfig('pretty', {
      stateDir: path.join(root, 'state'),
      ...local,
      // Behind a proxy the admin API's public URL is what the operator is told.
      admin: { port: 0, host: '127.0.0.1', publicUrl: 'https://docs-admin.acme.internal' },
      log: { level: 'info', format: 'pretty' },
      organizations: [{ id: 'org_a', name: 'A', plan: 'enterprise' }],
      projects: [{ id: '65a1f0c2e4b0a1b2c3d4e5f6', orgId: 'org_a', name: 'Handbook', domain: 'localhost', sourceDir }],
    });
    const s = serve(configFile);
    await untilLine(s, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: listening$/);
    const siteUrl = /^ {4}siteUrl: "(http:\/\/127\.0\.0\.1:\d+\/)"$/.exec(await untilLine(s, /^ {4}siteUrl: /))![1]!;
    expect(await untilLine(s, /^ {4}adminUrl: /)).toBe('    adminUrl: "https://docs-admin.acme.internal/"');
    expect(await untilLine(s, /^ {4}consoleUrl: /)).toBe('    consoleUrl: "https://docs-admin.acme.internal/console"');
    expect(await untilLine(s, /^ {4}initialKeyFile: /)).toContain(path.join(root, 'state', 'initial-admin-key'));
    await untilLine(s, new RegExp(`INFO: first start: exported project "Handbook" \\(${sourceDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`));
    expect(await untilServed(siteUrl)).toBe(200);
    // No JSON line, no colour codes (standard output is a pipe), no service/pid/hostname noise.
    expect(s.lines.filter((l) => l.startsWith('{'))).toEqual([]);
    expect(s.lines.join('\n')).not.toMatch(/\u001b\[|docs-appliance"|pid: /);
    expect(s.lines.join('\n')).not.toContain('example docs"');
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });
});

describe('serve: a first start that cannot export', () => {
  it('names the operator\'s project whose export failed, not the example docs', async () => {
    const root = tmp();
    const sourceDir = path.join(root, 'empty-docs');
    fs.mkdirSync(sourceDir);
    const s = serve(
      writeConfig('failing', {
        stateDir: path.join(root, 'state'),
        ...local,
        organizations: [{ id: 'org_a', name: 'A', plan: 'enterprise' }],
        projects: [{ id: '65a1f0c2e4b0a1b2c3d4e5f6', orgId: 'org_a', name: 'Handbook', domain: 'localhost', sourceDir }],
      }),
    );
    const { adminPort } = await untilListening(s);
    const failed = JSON.parse(await untilLine(s, /"msg":"first start: exporting /)) as { level: number; msg: string };
    expect(failed).toMatchObject({ level: 50, msg: `first start: exporting project "Handbook" (${sourceDir}) failed` });
    const ready = (await (await fetch(`http://127.0.0.1:${adminPort}/readyz`)).json()) as { checks: { site: { detail: string } } };
    expect(ready.checks.site.detail).toContain(`exporting project "Handbook" (${sourceDir}) failed: `);
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });
});

describe('serve: start-up and config errors name the fix', () => {
  it('a port in use names the setting and its environment variable', async () => {
    tmp();
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      const admin = serve(writeConfig('admin-taken', { stateDir: path.join(dir!, 'a'), ...local, admin: { port: taken, host: '127.0.0.1' } }));
      expect(await admin.exited).toBe(1);
      expect(admin.lines.join('\n')).toContain(
        `start-up failed: The admin listener cannot listen on 127.0.0.1:${taken}: the address is already in use (EADDRINUSE); set admin.port in the config file or DOCS_APPLIANCE_ADMIN_PORT to a free port`,
      );
      const site = serve(writeConfig('site-taken', { stateDir: path.join(dir!, 's'), ...local, site: { port: taken, host: '127.0.0.1' } }));
      expect(await site.exited).toBe(1);
      expect(site.lines.join('\n')).toContain('(EADDRINUSE); set site.port in the config file or DOCS_APPLIANCE_SITE_PORT to a free port');
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('invalid JSON is placed by line and column; an unknown key gets "did you mean"', async () => {
    tmp();
    const broken = writeConfig('broken', '{\n  "stateDir": "./var",\n  "admin": { "port": 3000 }\n  "site": { "port": 8080 }\n}\n');
    const bad = await runCliProcess(['serve', '--config', broken]);
    expect(bad.code).toBe(78);
    expect(bad.err).toContain(`Config file ${broken} is not valid JSON: line 4, column 3: Expected ',' or '}' after property value\n4 |   "site": { "port": 8080 }\n  |   ^`);
    const typo = await runCliProcess(['serve', '--config', writeConfig('typo', { admin: { prot: 3000 }, lgo: { level: 'info' } })]);
    expect(typo.code).toBe(78);
    expect(typo.err).toContain('- admin.prot: unknown key; did you mean "admin.port"?');
    expect(typo.err).toContain('- lgo: unknown key; did you mean "log"?');
  });
});
