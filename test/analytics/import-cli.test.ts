import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_PROJECT, cliAdminApp, cliConfig, runCli } from '../helpers/cli.js';

const PROJECT = CLI_PROJECT;
const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'analytics', 'events.ndjson');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup() {
  const made = cliConfig('analytics-cli-');
  dirs.push(made.dir);
  return made;
}

const run = (argv: string[]) => runCli(argv);

describe('docs-appliance analytics import', () => {
  it('imports the good lines, reports each rejected line by number, and the report shows the events', async () => {
    const { config } = setup();
    const r = await run(['analytics', 'import', FIXTURE, '--config', config, '--json']);
    expect(r.code).toBe(0);
    const rejected = r.err.split('\n').filter((l) => l.includes(': line '));
    expect(rejected.map((l) => l.replace(/^.*: line (\d+): .*$/, '$1'))).toEqual(['3', '6', '7', '8', '9']);
    expect(r.err).toMatch(/line 3: not JSON/);
    expect(r.err).toMatch(/line 6: projectId: no project "ffffffffffffffffffffffff"/);
    expect(r.err).toMatch(/line 7: timestamp: must be an ISO 8601/);
    expect(r.err).toMatch(/line 8: timestamp: is in the future/);
    expect(r.err).toMatch(/line 9: path: must be a string/);
    expect(r.err).toMatch(/import: 100%/); // progress (plain lines when stderr is not a terminal)
    expect(JSON.parse(r.out)).toMatchObject({ lines: 10, accepted: 4, stored: 4, rejected: 5 });

    const { ctx, app, close } = cliAdminApp(config);
    try {
      const key = ctx.stores.adminKeys.create({ orgId: 'org_a', scopes: ['read'], expiresAt: null }).key;
      const res = await supertest(app).get(`/v1/analytics/${PROJECT}/searches`).set('Authorization', `Bearer ${key}`).expect(200);
      expect(res.body).toEqual({
        searches: [
          { searchQuery: 'install on rhel', hits: 2, ctr: 50, topClickedPage: '/guides/install', lastSearchedAt: '2026-11-01T10:00:00.000Z' },
          { searchQuery: 'proxy', hits: 1, ctr: 0, topClickedPage: null, lastSearchedAt: '2026-11-02T09:30:00.000Z' },
        ],
        totalSearches: 3,
        nextCursor: null,
      });
    } finally {
      close();
    }
  });

  it('imports a file large enough for the parsing thread, with a bad line reported by number', async () => {
    const { config, dir } = setup();
    const file = path.join(dir, 'big.ndjson');
    const lines: string[] = [];
    const t0 = Date.parse('2026-11-01T00:00:00.000Z');
    // ~5 MB: past the 4 MiB from which the import parses on a thread of its own.
    for (let i = 0; i < 40_000; i++) {
      lines.push(JSON.stringify({ type: 'search', projectId: PROJECT, query: `term ${i % 500}`, resultCount: 3, sessionId: `s${i}`, timestamp: new Date(t0 + i * 1000).toISOString() }));
    }
    lines[12_345] = '{"type": "search"';
    fs.writeFileSync(file, lines.join('\n') + '\n');
    expect(fs.statSync(file).size).toBeGreaterThan(4 << 20);
    const r = await run(['analytics', 'import', file, '--config', config, '--json']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/big\.ndjson: line 12346: not JSON/);
    expect(JSON.parse(r.out)).toMatchObject({ lines: 40_000, accepted: 39_999, stored: 39_999, rejected: 1 });
  });

  it('--strict exits 1 when a line was rejected; a missing file or bad usage is reported', async () => {
    const { config, dir } = setup();
    expect((await run(['analytics', 'import', FIXTURE, '--config', config, '--strict'])).code).toBe(1);
    const missing = await run(['analytics', 'import', path.join(dir, 'nope.ndjson'), '--config', config]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nope\.ndjson: no such file/);
    expect((await run(['analytics', 'import', '--config', config])).code).toBe(2);
    expect((await run(['analytics', 'export', '--config', config])).code).toBe(2);
  });
});
