/**
 * What the appliance hands a runner worker and what the worker reports back. Plain data only:
 * it crosses a worker_threads boundary (structured clone). Secrets do not travel here: the
 * worker reads the model key and the Git host token from its own copy of the environment by
 * the variable names given.
 */
import type { RunLimits } from './limits.js';
import type { ChatMessage } from './model-client.js';

export type GitHostType = 'gitea' | 'gitlab' | 'github';

export interface RunInput {
  jobId: string;
  turn: number;
  /** Working copy for this run; replaced by a fresh clone at the start of each run. */
  workDir: string;
  repository: string;
  /** Branch the pull request targets; null = the remote's default branch. */
  baseBranch: string | null;
  /** Branch the agent works on (source.ref). */
  ref: string;
  /** The pull request of an earlier turn, if any: a push updates it, none is opened again. */
  prLink: string | null;
  /** Open the pull request as a draft (v1 `asDraft`), in the host's way of marking one. */
  draft: boolean;
  /** The job's first instruction on one line (the pull request's title); null for older jobs. */
  title: string | null;
  /** Git host user names to request as reviewers of a pull request this run opens (where the host supports it). */
  reviewers?: string[];
  /** The conversation so far, ending with this turn's prompt(s). */
  conversation: ChatMessage[];
  model: { baseUrl: string; name: string; apiKeyEnv: string | null };
  gitHost: { type: GitHostType; apiUrl: string; tokenEnv: string | null } | null;
  limits: RunLimits;
}

export type RunOutcome = { ok: true; changed: boolean; prLink: string | null; commit: string | null; summary: string } | { ok: false; reason: string };

export type RunEvent =
  | { type: 'message'; message: ChatMessage }
  | { type: 'log'; level: 'debug' | 'info' | 'warn'; msg: string; data?: Record<string, unknown> }
  | { type: 'outcome'; outcome: RunOutcome };
