import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../config/load.js';

const org = { id: 'org_a', name: 'A', plan: 'enterprise' };
const project = {
  id: '65a1f0c2e4b0a1b2c3d4e5f6',
  orgId: 'org_a',
  name: 'A docs',
  domain: 'docs.a.internal',
  sourceDir: '/srv/a',
  repository: 'https://git.corp/acme/docs.git',
  gitHost: { type: 'gitea', apiUrl: 'https://git.corp/api/v1' },
};
const code = 'https://git.corp/acme/api.git';
const parse = (automations: unknown[], extra: Record<string, unknown> = {}) => parseConfig({ organizations: [org], projects: [{ ...project, ...extra, automations }] }, { source: 'test' });
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('projects[].automations', () => {
  it('takes the three triggers and fills the defaults', () => {
    const config = parse([
      { id: 'nightly', name: 'Nightly', predefined: 'update-from-code', trigger: { type: 'schedule', cron: '0 3 * * 1-5' }, contextRepositories: [{ url: code, branch: 'main' }] },
      { id: 'on-push', name: 'On push', instruction: 'Update the API pages.', trigger: { type: 'push', repository: code }, contextRepositories: [{ url: code }], updateMode: 'group' },
      { id: 'ci', name: 'From CI', instruction: 'Draft the changelog.', trigger: { type: 'api' } },
    ]);
    expect(config.projects[0]!.automations.map((a) => [a.id, a.updateMode, a.enabled, a.contextRepositories.length])).toEqual([
      ['nightly', 'pull-request', true, 1],
      ['on-push', 'group', true, 1],
      ['ci', 'pull-request', true, 0],
    ]);
  });

  it('names the key of each mistake', () => {
    expect(errorOf(() => parse([{ id: 'a', name: 'A', instruction: 'x', trigger: { type: 'schedule', cron: 'every day' } }]))).toMatch(/automations\.0\.trigger\.cron: must be a valid cron expression/);
    expect(errorOf(() => parse([{ id: 'a', name: 'A', trigger: { type: 'api' } }]))).toMatch(/automations\.0\.instruction: is required unless predefined/);
    expect(errorOf(() => parse([{ id: 'a', name: 'A', instruction: 'x', trigger: { type: 'push', repository: 'https://elsewhere/x.git' } }]))).toMatch(/trigger\.repository: must be one of contextRepositories/);
    expect(errorOf(() => parse([{ id: 'a', name: 'A', instruction: 'x', trigger: { type: 'api' } }, { id: 'a', name: 'B', instruction: 'y', trigger: { type: 'api' } }]))).toMatch(/automation id "a" is used twice/);
    expect(errorOf(() => parse([{ id: 'a', name: 'A', instruction: 'x', trigger: { type: 'api' }, contextRepositories: Array.from({ length: 11 }, (_, i) => ({ url: `${code}${i}` })) }]))).toMatch(/contextRepositories/);
    expect(errorOf(() => parse([{ id: 'a', name: 'A', instruction: 'x', trigger: { type: 'api' } }], { gitHost: undefined }))).toMatch(/automations: need projects\[\]\.repository and projects\[\]\.gitHost/);
    expect(errorOf(() => parse([{ id: 'a b', name: 'A', instruction: 'x', trigger: { type: 'api' } }]))).toMatch(/automations\.0\.id/);
    expect(errorOf(() => parse([{ id: 'a', name: 'A', instruction: 'x', trigger: { type: 'api' }, reviewers: [] }]))).toMatch(/reviewers: unknown key/);
  });
});
