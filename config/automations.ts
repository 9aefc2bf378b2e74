import cron from 'node-cron';
import { z } from 'zod';

/**
 * `projects[].automations[]` (issue 42, docs/automations.md): the agent run on a schedule, on a
 * push to a repository, or only when triggered through the API. Validated here; the feature in
 * app/automations/ runs them.
 */

/** The hosted platform allows up to 10 context repositories per automation. */
export const MAX_CONTEXT_REPOSITORIES = 10;
export const PREDEFINED_AUTOMATIONS = ['update-from-code', 'draft-changelog', 'translate-changes', 'fix-broken-links'] as const;

const branchName = z
  .string()
  .min(1)
  .max(200)
  .refine((b) => !b.startsWith('-') && !/[\s~^:?*[\\]|\.\.|@\{|\/\/|\/$|\.lock$/.test(b), 'must be a valid git branch name');

const contextRepository = z.strictObject({
  /** Clone URL (http(s), ssh, or a path on the appliance): the code the docs describe. Read only. */
  url: z.string().min(1).refine((u) => !/^[a-z]+:\/\/[^/?#]*@/i.test(u) || /^ssh:\/\//i.test(u), 'must not contain a user name or password'),
  /** The branch whose changes are followed; default: the remote's default branch (HEAD). */
  branch: branchName.optional(),
});

const trigger = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('schedule'),
    /** node-cron syntax (5 fields, or 6 with seconds), in the appliance's time zone. */
    cron: z.string().min(1).refine((c) => cron.validate(c), 'must be a valid cron expression (node-cron syntax, e.g. "0 6 * * 1-5")'),
  }),
  z.strictObject({
    type: z.literal('push'),
    /** The repository whose branch is watched: one of contextRepositories[].url; default: the project's own repository. */
    repository: z.string().min(1).optional(),
    /** Branch watched; default: that context repository's branch, or the project's branch. */
    branch: branchName.optional(),
  }),
  z.strictObject({ type: z.literal('api') }),
]);

export const automationSchema = z
  .strictObject({
    /** The workflowSchemaId of `POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger`. */
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"'),
    name: z.string().min(1).max(200),
    /** The agent's prompt. Optional with `predefined` (its template is used, this text appended). */
    instruction: z.string().max(20_000).optional(),
    /** A documented instruction template (docs/automations.md, "Predefined automations"). */
    predefined: z.enum(PREDEFINED_AUTOMATIONS).optional(),
    trigger,
    contextRepositories: z.array(contextRepository).max(MAX_CONTEXT_REPOSITORIES).default([]),
    /** `pull-request`: each run opens its own; `group`: a run adds to the automation's open pull request. */
    updateMode: z.enum(['pull-request', 'group']).default('pull-request'),
    /** false: kept in the config but never run (the trigger answers 400, as for an inactive hosted automation). */
    enabled: z.boolean().default(true),
  })
  .superRefine((a, ctx) => {
    if (!a.predefined && !a.instruction?.trim()) ctx.addIssue({ code: 'custom', path: ['instruction'], message: 'is required unless predefined names a template' });
    const urls = a.contextRepositories.map((r) => r.url);
    const dup = urls.find((u, i) => urls.indexOf(u) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['contextRepositories'], message: `lists ${dup} twice` });
    if (a.trigger.type === 'push' && a.trigger.repository !== undefined && !urls.includes(a.trigger.repository)) {
      ctx.addIssue({ code: 'custom', path: ['trigger', 'repository'], message: 'must be one of contextRepositories[].url (leave it out for the project\'s own repository)' });
    }
  });

export const automationsSchema = z
  .array(automationSchema)
  .max(50)
  .default([])
  .superRefine((list, ctx) => {
    const ids = list.map((a) => a.id);
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup) ctx.addIssue({ code: 'custom', message: `automation id "${dup}" is used twice in this project` });
  });

export type AutomationConfig = z.output<typeof automationSchema>;
export type AutomationTrigger = AutomationConfig['trigger'];
