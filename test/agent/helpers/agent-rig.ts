import { afterEach } from 'vitest';
import { startFakeGitHost } from './fake-git-host.js';
import { startFakeModel } from './fake-model.js';
import { createBareRemote } from './git-remote.js';
import { createAgentAppliance, type AgentSetup } from './agent-appliance.js';

export interface RigOptions {
  agent?: AgentSetup['agent'];
  gitHostType?: AgentSetup['gitHostType'];
  gitHostFail?: { status: number; body: string };
  /** false: the appliance is built but not started (the test starts it). */
  start?: boolean;
}

/**
 * The whole rig of an agent run test: a bare repository, a scripted fake model, a fake Git host
 * and an appliance wired to them, with an admin key. Call once per file: it registers an
 * afterEach that takes down everything the file's tests started, newest first.
 */
export function agentRig() {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return async function setup(script: Parameters<typeof startFakeModel>[0], opts: RigOptions = {}) {
    const remote = createBareRemote();
    cleanups.push(() => remote.remove());
    const model = await startFakeModel(script);
    cleanups.push(() => model.close());
    const host = await startFakeGitHost(opts.gitHostFail ? { failWith: opts.gitHostFail } : {});
    cleanups.push(() => host.close());
    const t = createAgentAppliance({
      modelUrl: model.baseUrl,
      repository: remote.bare,
      gitHostUrl: host.apiUrl,
      ...(opts.gitHostType ? { gitHostType: opts.gitHostType } : {}),
      ...(opts.agent ? { agent: opts.agent } : {}),
    });
    cleanups.push(() => t.close());
    if (opts.start !== false) await t.start();
    return { remote, model, host, t, key: t.createKey() };
  };
}
