import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../config/load.js';
import { migrate, openDatabase } from '../../data/db.js';
import { migrations } from '../../data/migrations/index.js';
import { createTestAppliance, TEST_ORG } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';

const org = { id: 'org_a', name: 'A', plan: 'enterprise' };
const GIT = '65a1f0c2e4b0a1b2c3d4e5f6';
const DIR = '75a1f0c2e4b0a1b2c3d4e5f7';
const gitProject = { id: GIT, orgId: 'org_a', name: 'Git docs', domain: 'git.a.internal', repository: 'https://git.internal/acme/docs.git', branch: 'main', publish: { source: 'git' as const } };

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'git-projects-'));
  dirs.push(d);
  return d;
};
const configFile = (dir: string, projects: object[]) => {
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, JSON.stringify({ stateDir: path.join(dir, 'state'), organizations: [org], projects }));
  return file;
};

describe('a project published from git needs no sourceDir', () => {
  it('is a valid config; a directory project without one is refused with what to set', () => {
    const config = parseConfig({ organizations: [org], projects: [gitProject] });
    expect(config.projects[0]!.sourceDir).toBeUndefined();
    let message = '';
    try {
      parseConfig({ organizations: [org], projects: [{ id: DIR, orgId: 'org_a', name: 'Dir docs', domain: 'dir.a.internal' }] });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain('- projects.0.sourceDir: required: the directory of the project\'s docs (or set publish.source to "git" with a repository to publish from git)');
  });

  it('`projects list` shows the repository where there is no directory', async () => {
    const dir = tmp();
    const file = configFile(dir, [gitProject, { id: DIR, orgId: 'org_a', name: 'Dir docs', domain: 'dir.a.internal', sourceDir: dir }]);
    const listed = await runCli(['projects', 'list', '--config', file]);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain(`${GIT}  org=org_a  domain=git.a.internal  Git docs  (git https://git.internal/acme/docs.git)`);
    expect(listed.out).toContain(`${DIR}  org=org_a  domain=dir.a.internal  Dir docs  (${dir})`);
    const json = JSON.parse((await runCli(['projects', 'list', '--json', '--config', file])).out) as { projects: Array<{ id: string; sourceDir: string | null }> };
    expect(json.projects.find((p) => p.id === GIT)!.sourceDir).toBeNull();
  });
});

describe('the static export of a project with no directory', () => {
  it('answers 400 naming the missing sourceDir, and queues nothing', async () => {
    const t = createTestAppliance({ config: { projects: [{ ...gitProject, orgId: TEST_ORG }] } });
    dirs.push(t.stateDir);
    try {
      const key = t.createKey(TEST_ORG);
      const res = await t.api(key).post('/v1/static-export/jobs').send({ domain: 'git.a.internal' }).expect(400);
      expect(res.body.error).toBe('Invalid body: domain: the project of "git.a.internal" has no sourceDir (it is published from git): set its sourceDir in the config to export it');
      expect(t.ctx.db.prepare('SELECT count(*) AS n FROM export_jobs').get()).toEqual({ n: 0 });
    } finally {
      await t.close();
    }
  });
});

describe('doctor', () => {
  it('passes a git project with no directory; every FAIL says why and what to do', async () => {
    const dir = tmp();
    const missing = path.join(dir, 'not-mounted');
    const file = configFile(dir, [gitProject, { id: DIR, orgId: 'org_a', name: 'Dir docs', domain: 'dir.a.internal', sourceDir: missing }]);
    const r = await runCli(['doctor', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`ok    project ${GIT}: git.a.internal → git https://git.internal/acme/docs.git (main)`);
    expect(r.out).toContain(`FAIL  project ${DIR}: dir.a.internal: source directory ${missing} does not exist: mount the docs there or set projects[1].sourceDir`);
    for (const line of r.out.split('\n').filter((l) => l.startsWith('FAIL'))) expect(line).toMatch(/: .+: .+/);

    fs.mkdirSync(missing);
    const fixed = await runCli(['doctor', '--config', file]);
    expect(fixed.out).not.toContain('FAIL');
    expect(fixed.code).toBe(0);
  });
});

describe('the documented container check of the example config (docs/operations.md, step 2)', () => {
  it('passes with no docs mounted: the example project is published from git', async () => {
    const dir = tmp();
    const example = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../docs-appliance.example.json'), 'utf8')) as Record<string, unknown>;
    const file = path.join(dir, 'c.json');
    fs.writeFileSync(file, JSON.stringify({ ...example, stateDir: path.join(dir, 'data') }));
    const r = await runCli(['doctor', '--config', file]);
    expect(r.out).not.toContain('FAIL');
    expect(r.code).toBe(0);
    expect(r.out).toContain('ok    project 65a1f0c2e4b0a1b2c3d4e5f6: docs.acme.internal → git https://git.acme.internal/docs/acme.git (main)');
  });
});

describe('migration 15 (projects: optional source directory, retired projects)', () => {
  it('keeps every project and the rows that reference it when upgrading a database', () => {
    const file = path.join(tmp(), 'old.db');
    const old = openDatabase(file, { migrations: migrations.filter((m) => m.id < 15) });
    old.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_a', 'A', 'enterprise', 'now')").run();
    old.prepare("INSERT INTO projects (id, org_id, name, domain, source_dir, created_at) VALUES (?, 'org_a', 'Dir docs', 'dir.a.internal', '/srv/a', 'now')").run(DIR);
    old.prepare("INSERT INTO publishes (id, project_id, kind, trigger, status, created_at) VALUES ('pub_1', ?, 'publish', 'cli', 'success', 'now')").run(DIR);
    old.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.id);
    expect(db.prepare('SELECT id, source_dir, retired_at FROM projects').all()).toEqual([{ id: DIR, source_dir: '/srv/a', retired_at: null }]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    // Foreign keys still hold, a git project needs no directory, and a domain is unique among the projects in use.
    expect(() => db.prepare("INSERT INTO publishes (id, project_id, kind, trigger, status, created_at) VALUES ('pub_2', 'nope', 'publish', 'cli', 'success', 'now')").run()).toThrow(/FOREIGN KEY/);
    db.prepare("INSERT INTO projects (id, org_id, name, domain, created_at) VALUES (?, 'org_a', 'Git docs', 'git.a.internal', 'now')").run(GIT);
    expect(() => db.prepare("INSERT INTO projects (id, org_id, name, domain, created_at) VALUES ('x', 'org_a', 'X', 'GIT.a.internal', 'now')").run()).toThrow(/UNIQUE/);
    db.prepare("UPDATE projects SET retired_at = 'now' WHERE id = ?").run(GIT);
    db.prepare("INSERT INTO projects (id, org_id, name, domain, created_at) VALUES ('x', 'org_a', 'X', 'git.a.internal', 'now')").run();
    expect(migrate(db, migrations).applied).toEqual([]);
    db.close();
  });
});
