import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/paths.js';
import { cliCommand } from '../helpers/cli-entry.js';

/** The CLI as a process, as an operator runs it: exit status and both streams. */
const cli = (...args: string[]) => spawnSync(process.execPath, [...cliCommand(), ...args], { cwd: packageRoot(), encoding: 'utf8', env: { ...process.env, DOCS_APPLIANCE_CONFIG: '' } });

describe('docs-appliance --help and --version', () => {
  it('--version prints the package version, exit 0', () => {
    const r = cli('--version');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^docs-appliance \d+\.\d+\.\d+\n$/);
    expect(cli('doctor', '--version').stdout).toBe(r.stdout);
    expect(cli('export', '--version').stdout).toBe(r.stdout);
  });

  it('every command and subcommand prints its usage with --help, exit 0', { timeout: 180_000 }, () => {
    const top = cli('--help');
    expect(top.status).toBe(0);
    for (const name of ['serve', 'agent', 'keys', 'projects', 'doctor', 'sites', 'export', 'analytics', 'feedback', 'audit', 'backup']) {
      expect(top.stdout).toContain(`  ${name} `);
      const r = cli(name, '--help');
      expect(r.status, name).toBe(0);
      expect(r.stdout, name).toContain(`docs-appliance ${name}`);
      expect(r.stdout, name).toContain('--config <file>');
    }
    const sub = cli('keys', 'create', '--help');
    expect(sub.status).toBe(0);
    expect(sub.stdout).toContain('docs-appliance keys create');
    expect(sub.stdout).not.toContain('docs-appliance keys revoke');
    expect(cli('sites', 'rollback', '-h').stdout).toContain('docs-appliance sites rollback <version>');
  });

  it('export --help names the exit codes, partial (3) included', () => {
    const r = cli('export', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/3 {2}partial: with --keep-going/);
  });

  it('an unknown option exits 2 with the usage', () => {
    const r = cli('projects', 'list', '--bogus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Unknown option '--bogus'");
    expect(r.stderr).toContain('docs-appliance projects list');
  });
});
