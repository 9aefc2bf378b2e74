import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runCliProcess, spawnServe, untilListening } from '../helpers/serve-process.js';

const RECOVERY = 'restore the last backup (docs/operations.md, "A damaged database")';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'damaged-db-'));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** A state dir and config; `damage` turns its (already created) database file into a broken one. */
async function stateWith(name: string, damage: (dbFile: string) => void) {
  const stateDir = path.join(root, name);
  const config = path.join(root, `${name}.json`);
  fs.writeFileSync(
    config,
    JSON.stringify({ stateDir, admin: { port: 0, host: '127.0.0.1' }, site: { port: 0, host: '127.0.0.1', exampleOnFirstStart: false }, organizations: [{ id: 'org_a', name: 'A', plan: 'enterprise' }], log: { level: 'info' } }),
  );
  // A real database first (every migration, a key), closed cleanly: no -wal left. In-process:
  // only what meets the damage needs to be a process of its own.
  const created = await runCli(['keys', 'create', '--org', 'org_a', '--json', '--config', config]);
  expect(created.code, created.err).toBe(0);
  const dbFile = path.join(stateDir, 'docs-appliance.db');
  damage(dbFile);
  return { config, dbFile, sha: crypto.createHash('sha256').update(fs.readFileSync(dbFile)).digest('hex') };
}

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

async function serveFails(config: string) {
  const s = spawnServe(config);
  const code = await s.exited;
  const fatal = s.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; code?: string; msg: string; err?: unknown });
  return { code, fatal: fatal.filter((l) => l.level === 60), all: s.lines.join('\n') };
}

describe('a damaged database', () => {
  it.each([
    ['not a database at all (the header overwritten)', (f: string) => fs.writeFileSync(f, Buffer.alloc(fs.statSync(f).size, 0x5a)), /SQLITE_NOTADB/],
    [
      'a valid header over torn pages (every page but the first overwritten)',
      (f: string) => {
        const buf = fs.readFileSync(f);
        const pageSize = buf.readUInt16BE(16);
        buf.fill(0xff, pageSize);
        fs.writeFileSync(f, buf);
      },
      /SQLITE_CORRUPT/,
    ],
  ])('%s: serve exits 1 with one line naming the recovery, the CLI and doctor say the same, and the file is left as it was', async (name, damage, sqliteCode) => {
    const { config, dbFile, sha } = await stateWith(name.split(' ')[0] + crypto.randomBytes(3).toString('hex'), damage);

    const serve = await serveFails(config);
    expect(serve.code, serve.all).toBe(1);
    expect(serve.fatal).toHaveLength(1);
    expect(serve.fatal[0]).toMatchObject({ code: 'DATABASE_DAMAGED' });
    expect(serve.fatal[0]!.msg).toContain(`start-up failed: The database ${dbFile} is damaged (`);
    expect(serve.fatal[0]!.msg).toMatch(sqliteCode);
    expect(serve.fatal[0]!.msg).toContain(RECOVERY);
    // An expected refusal, not a crash: no stack.
    expect(serve.fatal[0]!.err).toBeUndefined();
    expect(serve.all).not.toMatch(/listening/);

    // Any other command (main()'s error line; the same code as the process runs).
    const keys = await runCli(['keys', 'list', '--config', config]);
    expect(keys.code).toBe(1);
    expect(keys.err).toContain(`error: The database ${dbFile} is damaged (`);
    expect(keys.err).toContain(RECOVERY);

    const doctor = await runCliProcess(['doctor', '--json', '--config', config]);
    expect(doctor.code).toBe(1);
    const report = JSON.parse(doctor.out) as { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] };
    const failed = report.checks.filter((c) => !c.ok);
    expect(failed.map((c) => c.name)).toEqual([expect.stringMatching(/^(database|integrity)$/)]);
    expect(failed[0]!.detail).toMatch(/restore the last backup \(docs\/operations\.md, "A damaged database"\)/);

    // Nothing was repaired, replaced or deleted behind the operator's back.
    expect(sha256(dbFile)).toBe(sha);
  }, 90_000);

  it('a damaged lock file (serve.lock) stops serve with one line saying it can be deleted, and serve starts once it is', async () => {
    const { config } = await stateWith('lock', () => {});
    const lockFile = path.join(path.dirname(config), 'lock', 'serve.lock');
    fs.writeFileSync(lockFile, Buffer.alloc(4096, 0x5a));
    const serve = await serveFails(config);
    expect(serve.code, serve.all).toBe(1);
    expect(serve.fatal).toEqual([
      expect.objectContaining({
        code: 'STATE_LOCK_DAMAGED',
        msg: `start-up failed: The lock file ${lockFile} is damaged (SQLITE_NOTADB). It holds nothing of value: with no other serve on this state directory (fuser ${lockFile} names none), delete it and start again.`,
      }),
    ]);
    fs.rmSync(lockFile);
    const again = spawnServe(config);
    await untilListening(again);
    again.proc.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 90_000);

  it('doctor on a sound database reports its integrity check as ok', async () => {
    const { config } = await stateWith('sound', () => {});
    const doctor = await runCliProcess(['doctor', '--json', '--config', config]);
    expect(doctor.code, doctor.out).toBe(0);
    const report = JSON.parse(doctor.out) as { checks: { name: string; ok: boolean; detail: string }[] };
    expect(report.checks.find((c) => c.name === 'integrity')).toEqual({ name: 'integrity', ok: true, detail: 'quick_check ok' });
  }, 60_000);
});
