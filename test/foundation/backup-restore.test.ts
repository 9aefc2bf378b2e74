import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTree } from '../../app/fs-tree.js';
import { cliOnPath, runBash, shellBlocks } from '../helpers/doc-shell.js';
import { runCliProcess, spawnServe, untilListening, type ServeProcess } from '../helpers/serve-process.js';

const DOC = 'docs/operations.md';
const SECTION = 'Backing up `/data`';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/*
 * Issue 38 point 8: the online backup and the restore of docs/operations.md, as written there, but
 * without a container: `docker exec docs-appliance` is dropped, and the container's /data and
 * /restore/backup.tar are temporary paths. The backup runs beside a live `serve`.
 */
const [BACKUP, RESTORE] = shellBlocks(DOC, SECTION) as [string, string];

function backupScript(data: string): string {
  expect(BACKUP).toMatch(/^docker exec docs-appliance sh -c '/);
  return BACKUP.replaceAll('docker exec docs-appliance ', '').replaceAll('/data', data);
}

/** What `docker exec` has in the container: the CLI on PATH, DOCS_APPLIANCE_STATE_DIR (the image's ENV). */
const containerEnv = (bin: string, data: string) => ({ PATH: `${bin}:${process.env.PATH}`, DOCS_APPLIANCE_STATE_DIR: data });

/**
 * The restore block: its `gunzip` line as written, the new volume as a new directory, and the
 * script the container runs, with the mounted archive and /data mapped. `archive` is the file name
 * the block expects (the test gives the backup that name).
 */
function restoreScript(dir: string, restored: string): { archive: string; script: string } {
  const gunzip = RESTORE.split('\n')[0]!;
  const archive = /^gunzip (docs-appliance-backup-\d{8}T\d{6}Z\.tar\.gz)$/.exec(gunzip)?.[1];
  expect(archive, gunzip).toBeDefined();
  const inner = /--entrypoint sh docs-appliance:[^ ]+ -c \\\n\s*'([^']*)'/.exec(RESTORE)?.[1];
  expect(inner, RESTORE).toBeDefined();
  const tarFile = path.join(dir, archive!.replace(/\.gz$/, ''));
  return { archive: archive!, script: `${gunzip}\nmkdir -p '${restored}'\nsh -c '${inner!.replaceAll('/restore/backup.tar', tarFile).replaceAll('/data', restored)}'` };
}

function work(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'backup-restore-')));
  cleanups.push(() => removeTree(dir));
  return dir;
}

function configFor(dir: string, stateDir: string, name: string): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ stateDir, admin: { port: 0, host: '127.0.0.1' }, site: { port: 0, host: '127.0.0.1', exampleOnFirstStart: false }, organizations: [{ id: 'org_a', name: 'A', plan: 'enterprise' }], log: { level: 'info' } }));
  return file;
}

async function serve(config: string): Promise<{ s: ServeProcess; admin: string }> {
  const s = spawnServe(config);
  cleanups.push(async () => {
    if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGTERM');
    await s.exited;
  });
  const { adminPort } = await untilListening(s);
  return { s, admin: `http://127.0.0.1:${adminPort}` };
}

/** 404 "Job not found" is an answer to an accepted key; a key the database does not hold gets 401. */
const keyStatus = async (admin: string, key: string) => (await fetch(`${admin}/v1/static-export/jobs/se_0000000000000000`, { headers: { authorization: `Bearer ${key}` } })).status;

describe('the online backup and restore of docs/operations.md', () => {
  it('archives a live appliance without leaving a copy in its state directory, and restores to an appliance that takes the old key', async () => {
    const dir = work();
    const data = path.join(dir, 'data');
    const live = await serve(configFor(dir, data, 'live'));
    const created = await runCliProcess(['keys', 'create', '--org', 'org_a', '--json', '--config', path.join(dir, 'live.json')]);
    expect(created.code, created.err).toBe(0);
    const key = (JSON.parse(created.out) as { key: string }).key;
    expect(await keyStatus(live.admin, key)).toBe(404);
    // a signing secret as the appliance writes one on first use (app/secrets.ts), for the archive to carry
    fs.mkdirSync(path.join(data, 'secrets'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(data, 'secrets', 'bundle-links.0a0b0c0d.key'), crypto.randomBytes(32).toString('base64'), { mode: 0o600 });
    const secrets = fs.readdirSync(path.join(data, 'secrets'));

    const backup = await runBash(backupScript(data), containerEnv(cliOnPath(dir), data), 60_000, dir);
    expect(backup.code, backup.err).toBe(0);
    expect(backup.err).toMatch(new RegExp(`backup written: ${data}/backup/docs-appliance\\.db \\(\\d+ bytes\\)`));
    expect(fs.readdirSync(data)).not.toContain('backup');
    const archives = fs.readdirSync(dir).filter((f) => /^docs-appliance-backup-\d{8}T\d{6}Z\.tar\.gz$/.test(f));
    expect(archives).toHaveLength(1);
    const listing = execFileSync('tar', ['-tzf', path.join(dir, archives[0]!)], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('./backup/docs-appliance.db');
    for (const s of secrets) expect(listing).toContain(`./secrets/${s}`);
    for (const f of ['./docs-appliance.db', './docs-appliance.db-wal', './docs-appliance.db-shm']) expect(listing).not.toContain(f);

    live.s.proc.kill('SIGTERM');
    expect(await live.s.exited).toBe(0);

    const restored = path.join(dir, 'restored');
    const { archive, script } = restoreScript(dir, restored);
    fs.renameSync(path.join(dir, archives[0]!), path.join(dir, archive));
    const restore = await runBash(script, {}, 60_000, dir);
    expect(restore.code, restore.err).toBe(0);
    const entries = fs.readdirSync(restored);
    expect(entries).toContain('docs-appliance.db');
    expect(entries).not.toContain('backup');
    expect(fs.readdirSync(path.join(restored, 'secrets')).sort()).toEqual([...secrets].sort());

    const back = await serve(configFor(dir, restored, 'restored'));
    expect(await keyStatus(back.admin, key)).toBe(404);
    expect(await keyStatus(back.admin, `mint_${'x'.repeat(40)}`)).toBe(401);
  }, 90_000);

  it('removes the database copy when the archive step fails', async () => {
    const dir = work();
    const data = path.join(dir, 'data');
    await serve(configFor(dir, data, 'live'));
    // tar fails as a full disk or an I/O error would make it, after the copy was written
    const bin = cliOnPath(dir);
    fs.writeFileSync(path.join(bin, 'tar'), '#!/bin/sh\necho "tar: write error" >&2\nexit 2\n', { mode: 0o755 });
    const backup = await runBash(backupScript(data), containerEnv(bin, data), 60_000, dir);
    expect(backup.code).not.toBe(0);
    expect(backup.err).toContain('backup written:');
    expect(backup.err).toContain('tar: write error');
    expect(fs.readdirSync(data)).not.toContain('backup');
  }, 60_000);

  it('docs-appliance backup refuses no file, two files and the live database itself (exit 2), and a missing or damaged database (exit 1)', async () => {
    const dir = work();
    const config = configFor(dir, path.join(dir, 'data'), 'live');
    expect((await runCliProcess(['backup', '--config', config])).code).toBe(2);
    expect((await runCliProcess(['backup', 'a.db', 'b.db', '--config', config])).code).toBe(2);
    const self = await runCliProcess(['backup', path.join(dir, 'data', 'docs-appliance.db-wal'), '--config', config]);
    expect(self.code).toBe(2);
    expect(self.err).toContain('is the live database (or one of its files)');
    const none = await runCliProcess(['backup', path.join(dir, 'copy.db'), '--config', config]);
    expect(none.code).toBe(1);
    expect(none.err).toBe(`error: no database at ${path.join(dir, 'data', 'docs-appliance.db')} (the state directory of ${config})\n`);
    expect(fs.existsSync(path.join(dir, 'copy.db'))).toBe(false);
    // a damaged database names the recovery, as every command does, and leaves no copy
    fs.mkdirSync(path.join(dir, 'data'));
    fs.writeFileSync(path.join(dir, 'data', 'docs-appliance.db'), crypto.randomBytes(8192));
    const damaged = await runCliProcess(['backup', path.join(dir, 'copy.db'), '--config', config]);
    expect(damaged.code).toBe(1);
    expect(damaged.err).toContain('is damaged (SQLITE_NOTADB');
    expect(damaged.err).toContain('docs/operations.md, "A damaged database"');
    expect(fs.existsSync(path.join(dir, 'copy.db'))).toBe(false);
  });
});
