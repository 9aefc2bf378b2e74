import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { cliAdminApp, cliConfig, runCli } from '../helpers/cli.js';

const setup = () => cliConfig('cli-');

const run = (argv: string[]) => runCli(argv);

describe('docs-appliance keys', () => {
  it('create --json prints {id, key} and the key works through the API; revoke makes it 401', async () => {
    const { config } = setup();
    const created = await run(['keys', 'create', '--org', 'org_a', '--scopes', 'read', '--expires-in', '30', '--json', '--config', config]);
    expect(created.code).toBe(0);
    const { id, key } = JSON.parse(created.out) as { id: string; key: string };
    expect(id).toMatch(/^key_/);
    expect(key).toMatch(/^mint_[0-9A-Za-z]{32,}$/);

    const list = await run(['keys', 'list', '--json', '--config', config]);
    const keys = JSON.parse(list.out) as { id: string; scopes: string[]; expiresAt: string; prefix: string }[];
    const listed = keys.find((k) => k.id === id)!;
    expect(listed.scopes).toEqual(['read']);
    expect(Date.parse(listed.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(list.out).not.toContain(key);

    const { app, close } = cliAdminApp(config);
    const ok = await supertest(app).get('/v2/agent/65a1f0c2e4b0a1b2c3d4e5f6/job/x').set('Authorization', `Bearer ${key}`);
    expect(ok.status).toBe(404);
    const revoked = await run(['keys', 'revoke', id, '--config', config]);
    expect(revoked.code).toBe(0);
    const denied = await supertest(app).get('/v2/agent/65a1f0c2e4b0a1b2c3d4e5f6/job/x').set('Authorization', `Bearer ${key}`);
    expect(denied.status).toBe(401);
    close();
  });

  it('keys import stores a hosted key read from standard input (hash only) and it works through the API', async () => {
    const { config } = setup();
    const hosted = 'mint_' + 'Ab3'.repeat(14);
    const imported = await runCli(['keys', 'import', '--org', 'org_a', '--scopes', 'write', '--json', '--config', config], { stdin: `${hosted}\n` });
    expect(imported.code).toBe(0);
    const record = JSON.parse(imported.out) as { id: string; prefix: string; scopes: string[] };
    expect(record).toMatchObject({ prefix: hosted.slice(0, 11), scopes: ['write'] });
    expect(imported.out + imported.err).not.toContain(hosted);

    const { app, ctx, close } = cliAdminApp(config);
    const dump = JSON.stringify(ctx.db.prepare('SELECT * FROM admin_keys').all());
    expect(dump).not.toContain(hosted);
    // A write-only key reads too (write implies read): the job lookup reaches the route, a 404.
    const res = await supertest(app).get('/v2/agent/65a1f0c2e4b0a1b2c3d4e5f6/job/x').set('Authorization', `Bearer ${hosted}`);
    expect(res.status).toBe(404);
    close();

    const again = await runCli(['keys', 'import', '--org', 'org_a', '--config', config], { stdin: hosted });
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already stored/);
    const malformed = await runCli(['keys', 'import', '--org', 'org_a', '--config', config], { stdin: 'sk_live_123' });
    expect(malformed.code).toBe(1);
    expect(malformed.err).toMatch(/not an admin key/);
    expect(malformed.err).not.toContain('sk_live_123');
    expect((await runCli(['keys', 'import', '--org', 'org_a', '--config', config], { stdin: '  \n' })).code).toBe(2);
    expect((await runCli(['keys', 'import', '--org', 'org_a', '--config', config])).code).toBe(2);
  });

  it('refuses bad use with exit status 2 and an unknown org with 1', async () => {
    const { config } = setup();
    expect((await run(['keys', 'create', '--config', config])).code).toBe(2);
    expect((await run(['keys', 'create', '--org', 'org_a', '--scopes', 'admin', '--config', config])).code).toBe(2);
    expect((await run(['keys', 'create', '--org', 'org_a', '--expires-in', '-1', '--config', config])).code).toBe(2);
    expect((await run(['keys', 'frobnicate', '--config', config])).code).toBe(2);
    const unknown = await run(['keys', 'create', '--org', 'org_zzz', '--config', config]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/no organization "org_zzz"/);
    expect((await run(['keys', 'revoke', 'key_nope', '--config', config])).code).toBe(1);
    expect((await run(['nonsense'])).code).toBe(2);
  });

  it('projects list and doctor report the state', async () => {
    const { config } = setup();
    const projects = await run(['projects', 'list', '--json', '--config', config]);
    expect(JSON.parse(projects.out).projects[0]).toMatchObject({ id: '65a1f0c2e4b0a1b2c3d4e5f6', domain: 'docs.a.internal' });
    const doctor = await run(['doctor', '--json', '--config', config]);
    const report = JSON.parse(doctor.out) as { checks: { name: string; ok: boolean }[] };
    expect(report.checks.find((c) => c.name === 'database')!.ok).toBe(true);
    const broken = await run(['doctor', '--json', '--config', '/nonexistent/config.json']);
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.out).ok).toBe(false);
  });
});
