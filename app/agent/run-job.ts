import fs from 'node:fs';
import path from 'node:path';
import { AgentRunError, runAgentLoop } from './agent-loop.js';
import { createGit, GitError, type Git } from './git.js';
import { createGitHostClient, GitHostError } from './git-host.js';
import { createModelClient, type ChatMessage } from './model-client.js';
import { LimitError, type LimitKey } from './limits.js';
import { neutraliseTemplateTokens } from './template-tokens.js';
import type { RunEvent, RunInput, RunOutcome } from './run-protocol.js';
import { createWorkspaceTools, TOOL_LIMITS } from './workspace-tools.js';

/** User name sent with a token over git's http(s) Basic auth, per host (what each accepts). */
const TOKEN_USER = { gitea: 'oauth2', gitlab: 'oauth2', github: 'x-access-token' } as const;

/**
 * One turn of an agent job, from a fresh clone to a pushed branch and an open pull request.
 * Runs inside a worker thread; talks to the appliance only through `emit`. Either it returns a
 * complete outcome or a failure with a reason: nothing is pushed unless the loop finished.
 */
export async function runJob(input: RunInput, emit: (e: RunEvent) => void): Promise<RunOutcome> {
  const limitMs = input.limits.timeoutSeconds * 1000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`wall-clock limit of ${input.limits.timeoutSeconds} s reached (agent.timeoutSeconds)`)), limitMs);
  const log = (level: 'debug' | 'info' | 'warn', msg: string, data?: Record<string, unknown>) => emit({ type: 'log', level, msg, ...(data ? { data } : {}) });
  const token = input.gitHost?.tokenEnv ? process.env[input.gitHost.tokenEnv] : undefined;
  const git = createGit({ token, tokenUser: input.gitHost ? TOKEN_USER[input.gitHost.type] : undefined, signal: controller.signal });
  let pushed = false;
  try {
    const started = Date.now();
    await git.clone(input.repository, input.workDir);
    const base = input.baseBranch ?? (await git.defaultBranch(input.workDir));
    if (!(await git.remoteBranchExists(input.workDir, base))) throw new AgentRunError(`the repository has no branch "${base}" (projects[].branch)`);
    // A v1 caller names the branch: working on the base itself would push without review.
    if (input.ref === base) throw new AgentRunError(`the job's branch "${input.ref}" is the base branch of the pull request; name another branch`);
    const continuing = await git.remoteBranchExists(input.workDir, input.ref);
    await git.checkoutNew(input.workDir, input.ref, `origin/${continuing ? input.ref : base}`);
    log('info', continuing ? 'agent: continuing the job branch' : 'agent: created the job branch', { ref: input.ref, base, cloneMs: Date.now() - started });

    const apiKey = input.model.apiKeyEnv ? process.env[input.model.apiKeyEnv] : undefined;
    const limits = input.limits;
    const model = createModelClient({ baseUrl: input.model.baseUrl, model: input.model.name, apiKey, maxRequestBytes: limits.maxRequestBytes, maxReplyBytes: limits.maxReplyBytes });
    const tools = createWorkspaceTools(input.workDir, {
      readBytes: limits.maxToolOutputBytes,
      maxFilesChanged: limits.maxFilesChanged,
      maxChangedBytes: limits.maxChangedBytes,
      alreadyChanged: continuing ? await branchChanges(git, input.workDir, base) : new Map(),
    });
    // Limits the run went on past (with less): logged as they happen, listed in the pull request.
    const limitsHit = new Map<LimitKey, string>();
    const { summary, steps } = await runAgentLoop({
      model,
      tools,
      systemPrompt: systemPrompt(input, base),
      conversation: input.conversation,
      limits,
      modelName: input.model.name,
      signal: controller.signal,
      onMessage: (message) => emit({ type: 'message', message }),
      onToolCall: (name, args, error) => log(error ? 'warn' : 'debug', error ? 'agent: tool call refused' : 'agent: tool call', { tool: name, ...args, ...(error ? { error } : {}) }),
      onLimit: (limit, detail) => {
        if (!limitsHit.has(limit)) limitsHit.set(limit, detail);
        log('warn', `agent: limit agent.${limit} reached`, { limit: `agent.${limit}`, detail });
      },
    });

    const changed = await git.stageAll(input.workDir);
    if (changed.length === 0) {
      log('info', 'agent: finished without changing a file', { steps, ...limitsField(limitsHit) });
      return { ok: true, changed: false, prLink: input.prLink, commit: null, summary };
    }
    // The tools count every change; git has the last word on what the pull request would hold.
    const branchFiles = await git.stagedChangedSince(input.workDir, `origin/${base}`);
    if (branchFiles.length > limits.maxFilesChanged) {
      throw new AgentRunError(`agent.maxFilesChanged reached: the branch would change ${branchFiles.length} files; at most ${limits.maxFilesChanged} per job`);
    }
    const prompt = lastPrompt(input.conversation);
    const commit = await git.commit(input.workDir, commitMessage(input, prompt, summary, changed, limitsHit));
    try {
      await git.push(input.workDir, input.repository, input.ref);
    } catch (err) {
      if (err instanceof GitError) throw new AgentRunError(`the push of ${input.ref} was rejected: ${err.message}`);
      throw err;
    }
    pushed = true;
    log('info', 'agent: pushed', { ref: input.ref, commit, files: changed.length, steps, ...limitsField(limitsHit) });

    let prLink = input.prLink;
    if (!prLink) {
      if (!input.gitHost) throw new AgentRunError(`the branch ${input.ref} was pushed, but the project has no gitHost to open a pull request with`);
      const host = createGitHostClient({ type: input.gitHost.type, apiUrl: input.gitHost.apiUrl, token });
      try {
        prLink = await host.openPullRequest(
          { repository: input.repository, head: input.ref, base, title: `docs-agent: ${oneLine(input.title ?? prompt, 60)}`, body: prBody(input, prompt, summary, changed, limitsHit), draft: input.draft },
          AbortSignal.any([controller.signal, AbortSignal.timeout(60_000)]),
        );
      } catch (err) {
        if (err instanceof GitHostError) throw new AgentRunError(`the branch ${input.ref} was pushed, but opening the pull request failed: ${err.message}`);
        throw err;
      }
      log('info', 'agent: opened the pull request', { prLink });
      if (input.reviewers?.length) {
        // Reviewers are a courtesy: a host that refuses them leaves the pull request open all the same.
        try {
          if (await host.requestReviewers(input.repository, prLink, input.reviewers, AbortSignal.any([controller.signal, AbortSignal.timeout(30_000)]))) log('info', 'agent: requested reviewers', { reviewers: input.reviewers });
        } catch (err) {
          if (!(err instanceof GitHostError)) throw err;
          log('warn', 'agent: could not request reviewers', { reviewers: input.reviewers, err: err.message });
        }
      }
    }
    return { ok: true, changed: true, prLink, commit, summary };
  } catch (err) {
    if (controller.signal.aborted) {
      const reason = (controller.signal.reason as Error).message;
      return { ok: false, reason: pushed ? `${reason}; the branch ${input.ref} was pushed, but the pull request was not opened` : reason };
    }
    if (err instanceof AgentRunError || err instanceof GitError || err instanceof LimitError) return { ok: false, reason: git.scrub(err.message) };
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

function systemPrompt(input: RunInput, base: string): string {
  return [
    'You are the documentation agent of an on-premises documentation platform. You edit a documentation repository (Markdown/MDX pages, docs.json navigation) to carry out the user\'s instruction.',
    // A branch name may hold `<`, `|` and `>`: it cannot speak the chat template either.
    `You work on the branch "${neutraliseTemplateTokens(input.ref)}", based on "${neutraliseTemplateTokens(base)}". When you finish, every file you changed is committed and proposed as a pull request for review.`,
    'Tools: list_files, read_file, search_files, write_file (full new content of the file), delete_file. Paths are relative to the repository root; .git is off limits.',
    `Limits: ${input.limits.maxSteps} steps, ${input.limits.timeoutSeconds} seconds, at most ${input.limits.maxToolCallsPerReply} tool calls per reply, files up to ${Math.min(TOOL_LIMITS.readBytes, input.limits.maxToolOutputBytes)} bytes to read and ${TOOL_LIMITS.writeBytes} bytes to write, at most ${input.limits.maxFilesChanged} changed files per job.`,
    'Read before you write, keep the existing style and frontmatter, change only what the instruction needs. When done, call finish with a one-paragraph summary. If nothing needs to change, call finish without writing.',
  ].join('\n');
}

function lastPrompt(conversation: ChatMessage[]): string {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const m = conversation[i]!;
    if (m.role === 'user') return m.content;
  }
  return '';
}

const oneLine = (s: string, max: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t || 'update documentation';
};

function commitMessage(input: RunInput, prompt: string, summary: string, changed: string[], limitsHit: ReadonlyMap<LimitKey, string>): string {
  return [
    `docs: ${oneLine(prompt, 64)}`,
    '',
    oneLine(summary, 2000),
    '',
    `Files: ${changed.slice(0, 50).join(', ')}${changed.length > 50 ? ` and ${changed.length - 50} more` : ''}`,
    ...(limitsHit.size ? ['', `Limits reached: ${[...limitsHit.keys()].map((k) => `agent.${k}`).join(', ')}`] : []),
    '',
    `Agent-Job: ${input.jobId} (turn ${input.turn})`,
    `Model: ${input.model.name}`,
  ].join('\n');
}

/** Git hosts cap a description (GitHub at 65,536 characters); this one stays under it. */
const PR_BODY_CHARS = 60_000;

function prBody(input: RunInput, prompt: string, summary: string, changed: string[], limitsHit: ReadonlyMap<LimitKey, string>): string {
  const body = [
    `**Instruction**\n\n${prompt.slice(0, 4000)}`,
    `**Summary**\n\n${summary.slice(0, 4000)}`,
    `**Files**\n\n${changed.slice(0, 100).map((f) => `- \`${f}\``).join('\n')}${changed.length > 100 ? `\n- … and ${changed.length - 100} more` : ''}`,
    ...(limitsHit.size
      ? [`**Limits reached**: the agent went on with less; review whether the instruction is fully done.\n\n${[...limitsHit].map(([k, d]) => `- \`agent.${k}\`: ${d.slice(0, 300)}`).join('\n')}`]
      : []),
    `Opened by the docs-appliance agent, job \`${input.jobId}\`, model \`${input.model.name}\`. Follow-up messages to the job push to this branch.`,
  ].join('\n\n');
  return body.length > PR_BODY_CHARS ? `${body.slice(0, PR_BODY_CHARS - 40)}\n\n… (cut to ${PR_BODY_CHARS} characters)` : body;
}

/** Files the branch already changes against the base (earlier turns), with their size now. */
async function branchChanges(git: Git, dir: string, base: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const rel of await git.changedSince(dir, `origin/${base}`)) {
    let size = 0;
    try {
      const st = fs.lstatSync(path.join(dir, rel));
      if (st.isFile()) size = st.size;
    } catch {
      // deleted on the branch: a change of 0 bytes
    }
    out.set(rel, size);
  }
  return out;
}

const limitsField = (hit: ReadonlyMap<LimitKey, string>) => (hit.size ? { limits: [...hit.keys()].map((k) => `agent.${k}`) } : {});
