import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAppliance } from '../helpers/appliance.js';
import { raw, serveSampleSite } from './helpers.js';

/**
 * A reader's path reaches the filesystem; no error the filesystem can give for it may escape
 * (issue 14, finding 1: these three requests used to exit the process with status 1).
 */
describe('paths the filesystem refuses', () => {
  let t: TestAppliance;
  let port: number;
  let close: () => Promise<void>;
  const errorLines = () => t.logs.filter((l) => /"level":(50|60)/.test(l)).length;
  let errorsAtStart = 0;

  beforeAll(async () => {
    ({ t, port, close } = await serveSampleSite());
    errorsAtStart = errorLines();
  });
  afterAll(() => close());

  const fsWarnings = () => t.logs.filter((l) => l.includes("a reader's path met a filesystem error"));

  it('answers 404 to a too-long segment, a file used as a directory and a path through a file, and keeps serving', async () => {
    for (const p of [`/${'a'.repeat(300)}`, '/index.html/', '/manifest.json/x', '/guides/intro.html/deeper/still', `/guides/${'b'.repeat(254)}/`]) {
      for (const method of ['GET', 'HEAD']) {
        for (let i = 0; i < 2; i++) {
          const res = await raw(port, p, { method });
          expect(res.status, `${method} ${p}`).toBe(404);
        }
      }
    }
    const home = await raw(port, '/');
    expect(home.status).toBe(200);
    expect(home.body.toString()).toContain('Welcome (v1)');
  });

  it('answers 414 past 4096 bytes of path, before the filesystem sees it', async () => {
    const res = await raw(port, `/${'a/'.repeat(2100)}`);
    expect(res.status).toBe(414);
    expect((await raw(port, `/${'a/'.repeat(2000)}`)).status).toBe(404);
    expect((await raw(port, '/guides/intro')).status).toBe(200);
  });

  it('logs a filesystem error once per kind and minute, not once per request', async () => {
    const before = fsWarnings().length;
    for (let i = 0; i < 20; i++) expect((await raw(port, `/index.html/${i}`)).status).toBe(404);
    // Fresh paths, same error code (ENOTDIR): already logged by the first test, or once now.
    expect(fsWarnings().length - before).toBeLessThanOrEqual(1);
    const lines = fsWarnings().map((l) => JSON.parse(l) as { level: number; code: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines.map((l) => l.code)).size).toBe(lines.length);
    expect(lines.every((l) => l.level === 40)).toBe(true);
    expect(errorLines()).toBe(errorsAtStart);
  });
});
