import fs from 'node:fs';
import path from 'node:path';
import client from 'prom-client';
import type { Config } from '../../config/schema.js';
import type { AgentJobRecord } from '../../data/stores/agent-jobs.js';
import type { AppContext } from '../context.js';
import { tryRemoveTree } from '../fs-tree.js';
import { runLimitsOf } from './limits.js';
import type { ChatMessage } from './model-client.js';
import type { RunEvent, RunInput, RunOutcome } from './run-protocol.js';
import { runInWorker, type WorkerEntry, type WorkerRun } from './worker-host.js';

/** Runs of one turn a restart may start before the job fails instead (a job that crashes the process must not loop). */
export const MAX_ATTEMPTS_PER_TURN = 3;
/** Longest failure reason stored for a job. */
export const MAX_REASON_CHARS = 2000;

export interface AgentQueueOptions {
  /** Current config (SIGHUP may replace it). */
  config(): Readonly<Config>;
  /** The module each turn's thread runs; default runnerWorkerEntry() (tests pass the compiled one). */
  workerEntry?: WorkerEntry;
}

/** Working copies of agent runs: `<stateDir>/agent/work/<jobId>`. */
export const workRoot = (stateDir: string) => path.join(stateDir, 'agent', 'work');

/**
 * The durable queue's dispatcher. Jobs wait in SQLite (`active`/`queued`); up to
 * `agent.concurrency` run at once, each turn in its own worker thread. Every outcome lands in
 * the store in one transaction. Jobs found `running` at start belong to a process that died or
 * stopped: their turn runs again from its prompt, at most MAX_ATTEMPTS_PER_TURN times.
 */
export function createAgentQueue(ctx: AppContext, opts: AgentQueueOptions) {
  const store = ctx.stores.agentJobs;
  const running = new Map<string, { run: WorkerRun; done: Promise<void> }>();
  let started = false;
  let stopping = false;
  const turns = new client.Counter({
    name: 'docs_appliance_agent_turns_total',
    help: 'Agent job turns ended, by outcome (pull_request, no_change, failed)',
    labelNames: ['outcome'] as const,
    registers: [ctx.metrics.registry],
  });
  new client.Gauge({
    name: 'docs_appliance_agent_running',
    help: 'Agent job turns running now',
    registers: [ctx.metrics.registry],
    collect() {
      this.set(running.size);
    },
  });

  function recover(): void {
    for (const job of store.listRunning()) {
      if (job.attempts >= MAX_ATTEMPTS_PER_TURN) {
        const reason = `interrupted by a restart ${job.attempts} times; giving up on this instruction`;
        store.fail(job.id, reason);
        ctx.log.warn({ agentJob: job.id, attempts: job.attempts }, `agent job failed: ${reason}`);
      } else {
        store.requeueInterrupted(job.id);
        ctx.log.warn({ agentJob: job.id, turn: job.turn, attempts: job.attempts }, 'agent job was interrupted by a restart; its turn runs again from the prompt');
      }
    }
    // Working copies of runs that no longer run are leftovers of a stop or crash; one that cannot
    // be removed (a tree too deep for fs.rm, a permission) must not stop the appliance starting.
    const failure = tryRemoveTree(workRoot(ctx.config.stateDir));
    if (failure) ctx.log.warn({ dir: workRoot(ctx.config.stateDir), err: failure.message }, 'cannot remove old agent working copies; tried again at the next start');
  }

  function kick(): void {
    if (!started || stopping) return;
    const config = opts.config();
    while (running.size < config.agent.concurrency) {
      const job = store.claimNext();
      if (!job) return;
      launch(job, config);
    }
  }

  function launch(job: AgentJobRecord, config: Readonly<Config>): void {
    const log = ctx.log.child({ agentJob: job.id, turn: job.turn, attempt: job.attempts });
    const input = buildInput(job, config);
    if (typeof input === 'string') {
      finish(job, { ok: false, reason: input }, log);
      return;
    }
    log.info({ projectId: job.projectId, ref: job.ref, model: input.model.name }, 'agent job run started');
    const run = runInWorker(input, (e) => onEvent(job, e, log), opts.workerEntry);
    const done = run.outcome.then((outcome) => {
      running.delete(job.id);
      const failure = tryRemoveTree(input.workDir);
      if (failure) log.warn({ dir: input.workDir, err: failure.message }, 'cannot remove the working copy; removed at the next start');
      // On shutdown the job stays `running` in the database: the next start re-runs its turn.
      if (stopping) return;
      finish(job, outcome, log);
      kick();
    }).catch((err: unknown) => log.error({ err }, 'agent job outcome could not be recorded'));
    running.set(job.id, { run, done });
  }

  function buildInput(job: AgentJobRecord, config: Readonly<Config>): RunInput | string {
    const project = ctx.stores.projects.get(job.projectId);
    if (!project?.repository) return `project ${job.projectId} has no repository configured (projects[].repository)`;
    if (!config.agent.baseUrl) return 'the agent is not configured (agent.baseUrl)';
    const conversation = store.conversation(job.id, job.turn).map((m) => m.body as unknown as ChatMessage);
    return {
      jobId: job.id,
      turn: job.turn,
      workDir: path.join(workRoot(config.stateDir), job.id),
      repository: project.repository,
      baseBranch: project.branch,
      ref: job.ref,
      prLink: job.prLink,
      draft: job.draft,
      title: job.title,
      reviewers: job.reviewers,
      conversation,
      model: { baseUrl: config.agent.baseUrl, name: job.model, apiKeyEnv: config.agent.apiKeyEnv ?? null },
      gitHost: project.gitHost ? { type: project.gitHost.type, apiUrl: project.gitHost.apiUrl, tokenEnv: project.gitHost.tokenEnv ?? null } : null,
      limits: runLimitsOf(config.agent),
    };
  }

  function onEvent(job: AgentJobRecord, e: RunEvent, log: AppContext['log']): void {
    if (e.type === 'message') {
      const role = e.message.role;
      if (role === 'assistant' || role === 'tool') store.appendMessage(job.id, job.turn, role, e.message as unknown as Record<string, unknown>);
    } else if (e.type === 'log') {
      log[e.level](e.data ?? {}, e.msg);
    }
  }

  function finish(job: AgentJobRecord, raw: RunOutcome, log: AppContext['log']): void {
    // A reason can quote git's or the Git host's output: it is stored and logged, so it is kept short.
    const outcome: RunOutcome = !raw.ok && raw.reason.length > MAX_REASON_CHARS ? { ok: false, reason: `${raw.reason.slice(0, MAX_REASON_CHARS)}…` } : raw;
    turns.inc({ outcome: !outcome.ok ? 'failed' : outcome.changed ? 'pull_request' : 'no_change' });
    if (outcome.ok) {
      const after = store.complete(job.id, outcome.prLink, outcome.summary);
      log.info({ changed: outcome.changed, prLink: outcome.prLink, commit: outcome.commit, status: after.status }, 'agent job turn completed');
    } else {
      const after = store.fail(job.id, outcome.reason);
      log.warn({ reason: outcome.reason, status: after.status }, `agent job turn failed: ${outcome.reason}`);
    }
  }

  return {
    start(): void {
      recover();
      started = true;
      kick();
    },
    kick,
    /** Stop running turns at once; they stay `running` in the database and re-run at the next start. */
    async stop(): Promise<void> {
      stopping = true;
      const all = [...running.values()];
      await Promise.all(all.map((r) => r.run.terminate()));
      await Promise.all(all.map((r) => r.done));
    },
    /** Turns running now (readiness detail, tests). */
    runningCount: () => running.size,
  };
}

export type AgentQueue = ReturnType<typeof createAgentQueue>;
