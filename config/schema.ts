import { z } from 'zod';
import { DEFAULT_SITE_CSP } from '../renderer/csp.js';
import { bundleUrlProblem } from '../app/loader/source.js';
import { versionNameProblem } from '../app/loader/version-name.js';
import { automationsSchema } from './automations.js';
import { readerAuthSchema } from './reader-auth.js';

/**
 * The one configuration schema. Strict everywhere: an unknown key is an error (a typo in a
 * reviewed config file must not be silently ignored). Defaults live here and nowhere else.
 */

const port = z.number().int().min(0).max(65535);
const hostname = z
  .string()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i, 'must be a bare hostname (no scheme, port or path)');

/**
 * A URL setting the appliance calls or hands out: http(s) only (never `javascript:`, `data:`,
 * `file:`), and no user:password in it, since secrets never sit in the file (use the *Env keys).
 */
const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .refine((u) => !/^[a-z]+:\/\/[^/?#]*@/i.test(u), 'must not contain a user name or password');

export const planSchema = z.enum(['free', 'pro', 'enterprise']);

const organizationSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"'),
  name: z.string().min(1).max(200),
  plan: planSchema.default('free'),
});

const gitHostSchema = z.strictObject({
  type: z.enum(['gitea', 'gitlab', 'github']),
  apiUrl: httpUrl,
  /** Name of the environment variable holding the token (the token itself never sits in the file). */
  tokenEnv: z.string().min(1).optional(),
});

/** `scheme://host[:port]`, nothing else: what a browser's CSP and the playground proxy compare. */
const httpOrigin = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
  } catch {
    return false;
  }
}, 'must be an origin: http(s)://host[:port], no path, no trailing slash');

/** The API playground of the project's API pages (docs/api-reference.md, "Playground"). */
const playgroundSchema = z.strictObject({
  /** Replaces the spec's `servers` (and api.mdx.server) when this appliance serves the site. Its origin is allowed. */
  baseUrl: httpUrl.refine((u) => !/[?#]/.test(u), 'must not contain a query or fragment').optional(),
  /** Origins readers' browsers may call: the site's CSP connect-src gains exactly these. */
  allowedOrigins: z.array(httpOrigin).max(50).default([]),
  /** Forward playground requests through the site listener (only to the allowed origins). */
  proxy: z.boolean().default(false),
  timeoutMs: z.number().int().min(100).max(120_000).default(15_000),
  maxRequestBytes: z.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  maxResponseBytes: z.number().int().min(1024).max(64 * 1024 * 1024).default(8 * 1024 * 1024),
  /** Proxied requests in flight at once, for this project. */
  maxConcurrent: z.number().int().min(1).max(256).default(16),
  /** The whole request body must arrive within this; it is read before a slot is taken. */
  bodyTimeoutMs: z.number().int().min(100).max(120_000).default(10_000),
  /** Requests of one client address (as for rate limits: admin.trustProxy) at once, body reading included. */
  maxPerClient: z.number().int().min(1).max(256).default(4),
});

const projectSchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{24}$/, 'must be 24 lowercase hex characters'),
  orgId: z.string().min(1),
  name: z.string().min(1).max(200),
  domain: hostname,
  /** The docs directory (a relative path is resolved against the working directory). Optional for `publish.source: git`. */
  sourceDir: z.string().min(1).optional(),
  repository: z.string().min(1).optional(),
  branch: z.string().min(1).optional(),
  gitHost: gitHostSchema.optional(),
  /**
   * Ship the scripts of the project's exported components (default true). False: they are written
   * as their sandbox pre-render only and no script of theirs reaches readers (docs/component-runtime.md).
   */
  componentScripts: z.boolean().optional(),
  playground: playgroundSchema.optional(),
  /** How the project's site is published on the site listener (docs/publishing.md). */
  publish: z
    .strictObject({
      /** `directory`: export `sourceDir`; `git`: clone `repository` and read `branch` only. */
      source: z.enum(['directory', 'git']).default('directory'),
      /** Docs root inside the repository (git source): a relative path, '' = the repository root. */
      docsPath: z
        .string()
        .default('')
        .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), 'must be a relative path inside the repository'),
      /** Environment variable holding the push-webhook secret (HMAC key or X-Gitlab-Token); unset: no webhook. */
      webhookSecretEnv: z.string().min(1).optional(),
      /** Poll the branch head by cron (git source), for hosts that cannot call back. */
      poll: z.boolean().default(true),
    })
    .optional(),
  /** The agent on a schedule, on a push or on an API trigger (docs/automations.md). */
  automations: automationsSchema,
  /** Reader sign-in (JWT handoff, OAuth/OIDC or a shared password); absent: the site is public (docs/reader-access.md). */
  auth: readerAuthSchema.optional(),
}).superRefine((p, ctx) => {
  // A run is an agent job: it clones the project's repository and opens a pull request on its host.
  if (p.automations.length && (!p.repository || !p.gitHost)) {
    ctx.addIssue({ code: 'custom', path: ['automations'], message: 'need projects[].repository and projects[].gitHost (a run opens a pull request there)' });
  }
});

const staticExportSchema = z.strictObject({
  /** Serve the bundle named by bundleUrl on the site listener. */
  enabled: z.boolean().default(false),
  /** http(s)://, file://, a plain path to a .zip/.tar.gz, or a directory served in place. */
  bundleUrl: z
    .string()
    .min(1)
    .superRefine((url, ctx) => {
      const problem = bundleUrlProblem(url);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /** Pin: the manifest's version must equal it; an extracted copy of it is served without fetching. */
  version: z
    .string()
    .superRefine((v, ctx) => {
      const problem = versionNameProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /** Extracted versions kept in <stateDir>/sites for rollback. */
  keepVersions: z.number().int().min(1).max(50).default(3),
  fetch: z
    .strictObject({
      connectTimeoutMs: z.number().int().min(100).default(10_000),
      totalTimeoutMs: z.number().int().min(1000).default(600_000),
      retries: z.number().int().min(0).max(20).default(5),
      maxBytes: z.number().int().min(1024).default(2 * 1024 ** 3),
      /** First delay between download attempts; doubles per attempt, capped at 30 s. */
      backoffMs: z.number().int().min(1).default(1000),
    })
    .prefault({}),
  /** After a failed load the loader tries again: first after minMs, doubling up to maxMs. */
  retry: z
    .strictObject({
      minMs: z.number().int().min(10).default(5000),
      maxMs: z.number().int().min(10).default(300_000),
    })
    .prefault({}),
  /** Limits applied when a bundle is verified (zip-bomb and entry-flood protection). */
  maxEntries: z.number().int().min(1).default(200_000),
  maxUncompressedBytes: z.number().int().min(1024).default(8 * 1024 ** 3),
  /** Extraction and verification of one bundle (after its download) end within this, or the load fails. */
  verifyTimeoutMs: z.number().int().min(1000).default(600_000),
  /** Lifetime of a signed bundle link: default one hour, at most seven days. */
  linkTtlSeconds: z.number().int().min(1).max(7 * 24 * 3600).default(3600),
  /** Export jobs rendered at the same time; the rest wait as `queued`. */
  concurrency: z.number().int().min(1).max(16).default(1),
  /** Files of exports older than this are deleted by the retention cron job. */
  retentionDays: z.number().int().min(1).default(30),
  /** Export jobs waiting to run, per organization and in all; past either, a new one gets 429. */
  maxQueuedJobsPerOrg: z.number().int().min(1).default(20),
  maxQueuedJobs: z.number().int().min(1).default(100),
});

const analyticsSchema = z.strictObject({
  /** Requests per organization per rolling hour, shared by every /v1/analytics route. */
  rateLimitPerHour: z.number().int().min(1).default(100),
  /** Raw events older than this are deleted (daily rollups are kept). */
  rawRetentionDays: z.number().int().min(1).default(90),
  ingest: z
    .strictObject({
      maxBodyBytes: z.number().int().min(256).default(64 * 1024),
      maxBatch: z.number().int().min(1).default(100),
      perClientPerMinute: z.number().int().min(1).default(600),
    })
    .prefault({}),
  /** Page views, unique visitors and page feedback (issue 20); false: none collected. */
  readers: z
    .strictObject({
      enabled: z.boolean().default(true),
    })
    .prefault({}),
});

const publishSchema = z.strictObject({
  /** Cron schedule of the branch-head poll of git-sourced projects (node-cron syntax). */
  pollSchedule: z.string().min(1).default('* * * * *'),
  /** Preview host names: `{branch}` (made DNS-safe) and `{domain}` (the project's) are replaced. */
  previewHostPattern: z
    .string()
    .default('{branch}.preview.{domain}')
    .refine((p) => p.includes('{branch}'), 'must contain {branch}'),
  /** Scheme of the preview URLs handed out (the site listener speaks http; a TLS proxy may front it). */
  previewScheme: z.enum(['http', 'https']).default('https'),
  /** A preview is removed this long after its last deployment. */
  previewTtlHours: z.number().int().min(1).max(24 * 365).default(72),
  /** Project whose published site answers a Host that names no project (else the staticExport/example site). */
  defaultProject: z.string().regex(/^[0-9a-f]{24}$/, 'must be a project id').optional(),
  /** One publish (fetch, export, verification, activation) fails if it takes longer than this. */
  timeoutSeconds: z.number().int().min(10).default(1800),
});

const replicaSchema = z.strictObject({
  /** Admin URL of the publishing appliance; set: this instance follows its published sites. */
  upstreamUrl: httpUrl.refine((u) => !/[?#]/.test(u), 'must not contain a query or fragment').optional(),
  /** Site-listener URL of the publishing appliance: beacons posted here are forwarded to it. */
  upstreamSiteUrl: httpUrl.refine((u) => !/[?#]/.test(u), 'must not contain a query or fragment').optional(),
  /** Environment variable holding the replica key (`keys create --scopes replica` on the publisher). */
  keyEnv: z.string().min(1).default('DOCS_REPLICA_KEY'),
  /** Long-poll: how long the publisher holds a request open waiting for a change. */
  waitSeconds: z.number().int().min(1).max(120).default(25),
  /** Beacons held in memory while the publisher cannot be reached; past it the oldest are dropped. */
  maxBufferedEvents: z.number().int().min(100).max(1_000_000).default(10_000),
});

const agentSchema = z.strictObject({
  /** OpenAI-compatible chat-completions base URL inside the network, e.g. http://llm.internal/v1. */
  baseUrl: httpUrl.optional(),
  model: z.string().min(1).optional(),
  /** Name of the environment variable holding the model endpoint's API key, if it needs one. */
  apiKeyEnv: z.string().min(1).optional(),
  maxSteps: z.number().int().min(1).max(500).default(30),
  timeoutSeconds: z.number().int().min(1).default(900),
  archiveAfterDays: z.number().int().min(1).default(30),
  /** Create + message uses per project per rolling hour. */
  rateLimitPerHour: z.number().int().min(1).default(100),
  /** Agent runs executing at the same time. */
  concurrency: z.number().int().min(1).max(16).default(1),
  // Bounds on what one model (or one job) can make the appliance store, send or push; see docs/agent.md.
  /** Tool calls run from one model reply; the rest are dropped and the model is told. */
  maxToolCallsPerReply: z.number().int().min(1).max(1000).default(20),
  /** Bytes of one tool result kept (stored and sent back); longer output is cut with a marker. */
  maxToolOutputBytes: z.number().int().min(4096).max(64 * 1024 * 1024).default(256 * 1024),
  /** Bytes of one request to the model; older tool outputs are dropped from it to stay below. */
  maxRequestBytes: z.number().int().min(64 * 1024).max(256 * 1024 * 1024).default(4 * 1024 * 1024),
  /** Bytes of one model reply accepted; a larger one fails the turn. */
  maxReplyBytes: z.number().int().min(64 * 1024).max(256 * 1024 * 1024).default(8 * 1024 * 1024),
  /** Bytes of a job's stored conversation (prompts, replies, tool results); past it the turn fails. */
  maxTranscriptBytes: z.number().int().min(1024 * 1024).max(1024 * 1024 * 1024).default(16 * 1024 * 1024),
  /** Files a job's branch may change against its base; past it writes are refused. */
  maxFilesChanged: z.number().int().min(1).max(100_000).default(200),
  /** Bytes of the files a job's branch changes against its base; past it writes are refused. */
  maxChangedBytes: z.number().int().min(1024 * 1024).max(1024 * 1024 * 1024).default(32 * 1024 * 1024),
  /** Active (queued or running) agent jobs, per organization and in all; past either, 429. */
  maxActiveJobsPerOrg: z.number().int().min(1).default(10),
  maxActiveJobs: z.number().int().min(1).default(50),
});

/** The readers' assistant, the MCP server and the discovery API (issue 21; docs/assistant.md). */
const assistantSchema = z.strictObject({
  /** OpenAI-compatible chat-completions base URL inside the network; unset = the assistant is off. */
  baseUrl: httpUrl.optional(),
  model: z.string().min(1).optional(),
  /** Name of the environment variable holding the model endpoint's API key, if it needs one. */
  apiKeyEnv: z.string().min(1).optional(),
  /** Optional embeddings for retrieval: an OpenAI-compatible /v1/embeddings endpoint and model. */
  embeddings: z
    .strictObject({
      baseUrl: httpUrl,
      model: z.string().min(1),
      apiKeyEnv: z.string().min(1).optional(),
      /** Sections sent per embeddings request. */
      batchSize: z.number().int().min(1).max(512).default(32),
    })
    .optional(),
  /** Passages retrieved for an answer when the caller does not say (discovery retrievalPageSize). */
  retrievalPageSize: z.number().int().min(1).max(20).default(5),
  /** Characters of documentation passages sent to the model per answer; lower-ranked ones are dropped past it. */
  maxContextChars: z.number().int().min(1000).max(200_000).default(12_000),
  /** Earlier messages of a thread sent with a follow-up (the oldest are dropped past it). */
  maxHistoryMessages: z.number().int().min(0).max(50).default(8),
  /** Characters of one caller message; a longer question is refused with 400. */
  maxQuestionChars: z.number().int().min(100).max(20_000).default(2000),
  /** The model's answer: at most this many tokens (max_tokens) and this many characters streamed. */
  maxAnswerTokens: z.number().int().min(16).max(16_384).default(1024),
  maxAnswerChars: z.number().int().min(100).max(200_000).default(8000),
  /** One answer ends (with what has streamed so far and an error part) after this long. */
  timeoutSeconds: z.number().int().min(1).max(600).default(60),
  /** Answers generated at the same time, in all; past it a request gets 503 with Retry-After. */
  maxConcurrent: z.number().int().min(1).max(64).default(4),
  /** Questions per client address per minute on the site listener's /_/assistant. */
  perClientPerMinute: z.number().int().min(1).default(10),
  /** Questions of one client address in flight at once (body, retrieval and answer), so one reader cannot hold every maxConcurrent slot. */
  maxPerClient: z.number().int().min(1).max(64).default(2),
  /** Requests per client address per minute on /mcp and /_/assistant/search. */
  searchPerClientPerMinute: z.number().int().min(1).default(120),
  /** Discovery API requests per assistant key per minute. */
  perKeyPerMinute: z.number().int().min(1).default(60),
});

/** The admin console (issue 22, docs/console.md): sessions, sign-in limits, single sign-on. */
const consoleSchema = z.strictObject({
  /** Serve the console at /console on the admin listener. */
  enabled: z.boolean().default(true),
  /** A session unused this long ends. */
  idleMinutes: z.number().int().min(1).max(24 * 60).default(30),
  /** A session ends this long after sign-in, used or not. */
  absoluteHours: z.number().int().min(1).max(24 * 30).default(12),
  /** Sign-in attempts (key or SSO) per client address per 15 minutes; past it, 429. */
  signInAttemptsPer15Minutes: z.number().int().min(1).max(10_000).default(10),
  /** OpenID Connect single sign-on; absent: sign-in with an admin key only. */
  oidc: z
    .strictObject({
      /** The provider's issuer URL (its /.well-known/openid-configuration is read from it). */
      issuer: httpUrl,
      clientId: z.string().min(1),
      /** Name of the environment variable holding the client secret; absent: a public client (PKCE only). */
      clientSecretEnv: z.string().min(1).optional(),
      /** Where the provider sends the browser back; default: admin.publicUrl + /console/sso/callback. */
      redirectUrl: httpUrl.optional(),
      scopes: z.string().min(1).default('openid email profile'),
      /** The ID-token (or userinfo) claim listing the user's groups. */
      groupsClaim: z.string().min(1).default('groups'),
      /** The claim the audit log names the user by (falls back to `sub`). */
      nameClaim: z.string().min(1).default('email'),
      /** Allow an http:// issuer (a lab provider); production providers use https. */
      allowHttp: z.boolean().default(false),
      /** Provider group → organization and role. A user with no mapped group cannot sign in. */
      groups: z
        .array(z.strictObject({ group: z.string().min(1), orgId: z.string().min(1), role: z.enum(['read', 'write']) }))
        .min(1),
    })
    .optional(),
});

/** The web editor in the console (issue 41, docs/editor.md). */
const editorSchema = z.strictObject({
  /** Serve the editor at /console/orgs/{org}/projects/{project}/editor. */
  enabled: z.boolean().default(true),
  /** Largest image upload (bytes). */
  maxUploadBytes: z.number().int().min(1024).max(100 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Largest JSON body of the editor's API (a page saved or previewed travels in one). */
  maxBodyBytes: z.number().int().min(1024).max(64 * 1024 * 1024).default(4 * 1024 * 1024),
});

export const configSchema = z.strictObject({
  /** Database, exports, extracted sites and secrets. Never inside the source tree in production. */
  stateDir: z.string().min(1).default('./var'),
  admin: z
    .strictObject({
      port: port.default(3000),
      host: z.string().min(1).default('0.0.0.0'),
      /** Base URL clients reach the admin API at; signed bundle links are built on it. */
      publicUrl: httpUrl.refine((u) => !/[?#]/.test(u), 'must not contain a query or fragment (links are built by appending a path to it)').optional(),
      /** Largest JSON body accepted by the admin API. */
      maxBodyBytes: z.number().int().min(256).default(1024 * 1024),
      /** Express "trust proxy" setting, for client addresses behind a load balancer. */
      trustProxy: z.union([z.boolean(), z.number().int().min(0), z.string()]).default(false),
    })
    .prefault({}),
  site: z
    .strictObject({
      port: port.default(8080),
      host: z.string().min(1).default('0.0.0.0'),
      contentSecurityPolicy: z
        .string()
        .default(DEFAULT_SITE_CSP),
      /** With no staticExport and nothing ever served, export the example project once and serve it. */
      exampleOnFirstStart: z.boolean().default(true),
    })
    .prefault({}),
  log: z
    .strictObject({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      /** `auto`: human lines when standard output is a terminal, JSON lines otherwise; `json`, `pretty`: always. */
      format: z.enum(['auto', 'json', 'pretty']).default('auto'),
    })
    .prefault({}),
  organizations: z.array(organizationSchema).default([]),
  projects: z.array(projectSchema).default([]),
  staticExport: staticExportSchema.prefault({}),
  analytics: analyticsSchema.prefault({}),
  agent: agentSchema.prefault({}),
  assistant: assistantSchema.prefault({}),
  publish: publishSchema.prefault({}),
  replica: replicaSchema.prefault({}),
  console: consoleSchema.prefault({}),
  editor: editorSchema.prefault({}),
  renderer: z
    .strictObject({
      /** Worker threads of the render pool; 0 = one per available core. */
      threads: z.number().int().min(0).max(64).default(0),
    })
    .prefault({}),
  shutdown: z
    .strictObject({
      /** Hard limit for a graceful stop; below the usual 10 s orchestrator grace period. */
      timeoutMs: z.number().int().min(100).default(8000),
      /**
       * `serve` ends itself when its main thread has not run for this long (a stall no request
       * should cause), so that signals are honoured and a supervisor restarts it; 0 turns it off.
       */
      stallMs: z.number().int().min(0).max(3_600_000).default(30_000),
    })
    .prefault({}),
});

export type ConfigInput = z.input<typeof configSchema>;
export type Config = z.output<typeof configSchema>;
export type OrganizationConfig = Config['organizations'][number];
export type ProjectConfig = Config['projects'][number];
export type Plan = z.output<typeof planSchema>;
