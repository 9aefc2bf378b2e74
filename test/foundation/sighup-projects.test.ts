import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishFeature } from '../../app/publish/feature.js';
import { createTestAppliance, TEST_ORG, writeTinyDocs } from '../helpers/appliance.js';
import { runCliProcess, spawnServe, untilListening, type ServeProcess } from '../helpers/serve-process.js';
import { raw } from '../site/helpers.js';

const A = { id: 'a1a1a1a1a1a1a1a1a1a1a1a1', orgId: TEST_ORG, name: 'A docs', domain: 'docs.a.internal' };
const B = { id: 'b2b2b2b2b2b2b2b2b2b2b2b2', orgId: TEST_ORG, name: 'B docs', domain: 'docs.b.internal' };

let serve: ServeProcess | undefined;
const dirs: string[] = [];
afterEach(async () => {
  if (serve && serve.proc.exitCode === null) {
    serve.proc.kill('SIGKILL');
    await serve.exited;
  }
  serve = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function until(what: string, ok: () => boolean | Promise<boolean>, lines: string[], ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what} never happened:\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('SIGHUP picks up projects added to and removed from the config', { timeout: 120_000 }, () => {
  it('serves an added project at its domain, stops serving a removed one (its data stays), logs what changed, keeps a listener port', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sighup-projects-'));
    dirs.push(dir);
    const stateDir = path.join(dir, 'state');
    const docsA = writeTinyDocs(path.join(dir, 'a'));
    const docsB = writeTinyDocs(path.join(dir, 'b'));
    fs.writeFileSync(path.join(docsB, 'index.mdx'), '---\ntitle: Home\n---\n\nProject B says hello.\n');
    const a = { ...A, sourceDir: docsA };
    const b = { ...B, sourceDir: docsB };

    // Both projects published once, on the state dir the process serves afterwards.
    const t = createTestAppliance({ stateDir, config: { renderer: { threads: 1 }, projects: [a, b] } });
    await t.start();
    const service = (t.features.find((f) => f.name === 'publish') as PublishFeature).service;
    service.publish(A.id, 'cli');
    service.publish(B.id, 'cli');
    await service.idle();
    await t.close();

    const configFile = path.join(dir, 'config.json');
    const write = (projects: object[], sitePort = 0) =>
      fs.writeFileSync(
        configFile,
        JSON.stringify({
          stateDir,
          admin: { port: 0, host: '127.0.0.1' },
          site: { port: sitePort, host: '127.0.0.1', exampleOnFirstStart: false },
          log: { level: 'info' },
          renderer: { threads: 1 },
          organizations: [{ id: TEST_ORG, name: 'Test', plan: 'enterprise' }],
          projects,
        }),
      );
    // Started without B: the project is retired at start, like a removal.
    write([a]);
    serve = spawnServe(configFile);
    const { adminPort, sitePort } = await untilListening(serve);
    const lines = serve.lines;
    const at = async (host: string) => {
      const res = await raw(sitePort, '/', { headers: { host } });
      return { status: res.status, body: res.body.toString() };
    };
    const unknownHost = () => at('nobody.internal');
    await until('A served', async () => (await at(A.domain)).status === 200, lines);
    expect((await at(A.domain)).body).toContain('Welcome to the tiny docs');
    expect((await at(B.domain)).body).not.toContain('Project B says hello');
    expect(await at(B.domain)).toEqual(await unknownHost());

    const reloaded = (n: number) => lines.filter((l) => l.includes('SIGHUP: reloaded')).length >= n;
    write([a, b]);
    // A CLI command run with the edited file beside the server syncs the database first: the
    // reload still serves B and says it was added.
    const listed = await runCliProcess(['projects', 'list', '--config', configFile]);
    expect(listed.out).toContain(`${B.id}  org=${TEST_ORG}  domain=${B.domain}`);
    serve.proc.kill('SIGHUP');
    await until('the first reload', () => reloaded(1), lines);
    const b200 = await at(B.domain);
    expect(b200.status).toBe(200);
    expect(b200.body).toContain('Project B says hello');
    expect(lines.find((l) => l.includes('SIGHUP: reloaded'))).toContain(`projects added: ${B.id} (${B.domain}); removed: none; changed: none`);

    // Removed again, and a listener port asked for that cannot be taken live.
    write([a], 1);
    serve.proc.kill('SIGHUP');
    await until('the second reload', () => reloaded(2), lines);
    expect(lines.filter((l) => l.includes('SIGHUP: reloaded'))[1]).toContain(`projects added: none; removed: ${B.id}; changed: none`);
    expect(lines.some((l) => l.includes('"code":"RELOAD_NEEDS_RESTART"') && l.includes('site.port stays') && l.includes('the config says 1'))).toBe(true);
    expect((await at(B.domain)).body).not.toContain('Project B says hello');
    expect(await at(B.domain)).toEqual(await unknownHost());
    expect((await at(A.domain)).body).toContain('Welcome to the tiny docs');

    // A changed domain: the site answers at the new name.
    write([{ ...a, domain: 'docs.a2.internal' }], 1);
    serve.proc.kill('SIGHUP');
    await until('the third reload', () => reloaded(3), lines);
    expect(lines.filter((l) => l.includes('SIGHUP: reloaded'))[2]).toContain(`projects added: none; removed: none; changed: ${A.id} (docs.a2.internal)`);
    const moved = await at('docs.a2.internal');
    expect(moved.status).toBe(200);
    expect(moved.body).toContain('Welcome to the tiny docs');
    // Not only the fallback for an unknown host: readiness names the site by its new domain.
    const ready = (await raw(adminPort, '/readyz')).body.toString();
    expect(ready).toContain('"site":"docs.a2.internal"');
    expect(ready).not.toContain('"site":"docs.a.internal"');

    // A different state directory is refused as a whole: nothing changes.
    fs.writeFileSync(configFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(configFile, 'utf8')), stateDir: path.join(dir, 'other'), projects: [a, b] }));
    serve.proc.kill('SIGHUP');
    await until('the refusal', () => lines.some((l) => l.includes('RELOAD_REFUSED')), lines);
    expect(lines.find((l) => l.includes('RELOAD_REFUSED'))).toContain('SIGHUP: reload refused: stateDir changed');
    expect((await at(B.domain)).body).not.toContain('Project B says hello');

    serve.proc.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    // The removed project's published versions are still on disk, for when it is declared again.
    expect(fs.readdirSync(path.join(stateDir, 'published'))).toContain(B.id);
  });
});
