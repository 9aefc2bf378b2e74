/**
 * A replica's long-poll does not hold the appliance's shutdown (found by the Kubernetes test: every
 * stop with replicas following waited out shutdown.timeoutMs and exited 1). A stop answers the
 * wait at once (304: nothing changed) and the process exits 0 well inside the timeout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliProcess, spawnServe, untilListening } from '../helpers/serve-process.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'replica-stop-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('a replica long-poll at shutdown', () => {
  it('is answered 304 as the stop begins, and serve exits 0 without waiting for the poll to end', async () => {
    const config = path.join(root, 'config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        stateDir: path.join(root, 'state'),
        admin: { port: 0, host: '127.0.0.1' },
        site: { port: 0, host: '127.0.0.1', exampleOnFirstStart: false },
        organizations: [{ id: 'org_a', name: 'A', plan: 'enterprise' }],
        shutdown: { timeoutMs: 8000 },
      }),
    );
    const serve = spawnServe(config);
    const { adminPort } = await untilListening(serve);
    const made = await runCliProcess(['keys', 'create', '--org', 'org_a', '--scopes', 'replica', '--json', '--config', config]);
    expect(made.code, made.err).toBe(0);
    const key = (JSON.parse(made.out) as { key: string }).key;
    const url = `http://127.0.0.1:${adminPort}/v1/replica/sites`;
    const first = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;

    const asked = Date.now();
    const poll = fetch(`${url}?wait=25`, { headers: { authorization: `Bearer ${key}`, 'if-none-match': etag } });
    await new Promise((r) => setTimeout(r, 300));
    serve.proc.kill('SIGTERM');
    const answered = await poll;
    expect(answered.status).toBe(304);
    expect(Date.now() - asked).toBeLessThan(5000);
    expect(await serve.exited).toBe(0);
    expect(Date.now() - asked).toBeLessThan(7000);
    const log = serve.lines.join('\n');
    expect(log).toContain('"msg":"stopped"');
    expect(log).not.toContain('graceful shutdown timed out');
  }, 60_000);
});
