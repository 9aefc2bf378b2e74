import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConfigInput } from '../../../config/schema.js';
import { writeTinyDocs, createTestAppliance, FREE_ORG, FREE_PROJECT, OTHER_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../../helpers/appliance.js';

export const GIT_TOKEN_ENV = 'AGENT_TEST_GIT_TOKEN';
export const GIT_TOKEN = 'gt-secret-token-0123456789';
export const MODEL_KEY_ENV = 'AGENT_TEST_MODEL_KEY';
export const MODEL_KEY = 'mk-secret-key-9876543210';

export interface AgentSetup {
  modelUrl?: string;
  repository: string;
  gitHostUrl?: string;
  gitHostType?: 'gitea' | 'gitlab' | 'github';
  agent?: Partial<NonNullable<ConfigInput['agent']>>;
  stateDir?: string;
  /** The test project's automations (projects[].automations). */
  automations?: NonNullable<ConfigInput['projects']>[number]['automations'];
}

/** A test appliance whose test project has a repository, a Git host and (optionally) a model. */
export function createAgentAppliance(s: AgentSetup): TestAppliance {
  process.env[GIT_TOKEN_ENV] = GIT_TOKEN;
  process.env[MODEL_KEY_ENV] = MODEL_KEY;
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-site-'));
  const sourceDir = writeTinyDocs(path.join(siteDir, 'docs'));
  const t = createTestAppliance({
    ...(s.stateDir ? { stateDir: s.stateDir } : {}),
    sourceDir,
    config: {
      agent: {
        ...(s.modelUrl ? { baseUrl: s.modelUrl, model: 'test-model', apiKeyEnv: MODEL_KEY_ENV } : {}),
        timeoutSeconds: 20,
        ...s.agent,
      },
      organizations: [
        { id: TEST_ORG, name: 'Test', plan: 'enterprise' },
        { id: OTHER_ORG, name: 'Other', plan: 'enterprise' },
        { id: FREE_ORG, name: 'Free', plan: 'free' },
      ],
      projects: [
        {
          id: TEST_PROJECT,
          orgId: TEST_ORG,
          name: 'Test docs',
          domain: 'docs.test.internal',
          sourceDir,
          repository: s.repository,
          branch: 'main',
          gitHost: { type: s.gitHostType ?? 'gitea', apiUrl: s.gitHostUrl ?? 'http://127.0.0.1:9/api/v1', tokenEnv: GIT_TOKEN_ENV },
          ...(s.automations ? { automations: s.automations } : {}),
        },
        { id: OTHER_PROJECT, orgId: OTHER_ORG, name: 'Other docs', domain: 'docs.other.internal', sourceDir, repository: s.repository },
        { id: FREE_PROJECT, orgId: FREE_ORG, name: 'Free docs', domain: 'docs.free.internal', sourceDir },
      ],
    },
  });
  // The docs folder is this helper's: it goes with the appliance.
  const close = t.close;
  t.close = async () => {
    await close();
    fs.rmSync(siteDir, { recursive: true, force: true });
  };
  return t;
}

export const jobUrl = (id?: string, projectId = TEST_PROJECT) => (id ? `/v2/agent/${projectId}/job/${id}` : `/v2/agent/${projectId}/job`);

/** Poll the job over HTTP (as a client would) until it leaves `active`; every answer is spec-checked. */
export async function pollUntilDone(t: TestAppliance, key: string, id: string, timeoutMs = 45_000): Promise<{ body: Record<string, unknown>; polls: Array<Record<string, unknown>> }> {
  const started = Date.now();
  const polls: Array<Record<string, unknown>> = [];
  for (;;) {
    const r = await t.api(key).get(jobUrl(id)).expect(200);
    polls.push(r.body as Record<string, unknown>);
    if (r.body.status !== 'active') return { body: r.body as Record<string, unknown>, polls };
    if (Date.now() - started > timeoutMs) throw new Error(`job ${id} still active after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function waitFor<T>(fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
