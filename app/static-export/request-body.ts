import { z } from 'zod';
import { BUNDLE_FORMATS, BUNDLE_INCLUDES } from './files.js';

/** `se_` + 16 hex: the form of every export job id (anything else cannot name a job). */
export const JOB_ID_PATTERN = /^se_[0-9a-f]{16}$/;

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Say what is wrong with a domain that is not a bare hostname, in the client's terms. */
export function domainProblem(domain: string): string | undefined {
  if (domain.trim() === '') return 'must not be empty';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(domain)) return `must be a bare hostname without a scheme (got "${domain}"; send "${domain.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/:?#]/)[0]}")`;
  if (/[/?#]/.test(domain)) return `must be a bare hostname without a slash or path (got "${domain}")`;
  if (/:\d*$/.test(domain)) return `must be a bare hostname without a port (got "${domain}")`;
  if (/\s/.test(domain)) return `must be a bare hostname without spaces (got "${domain}")`;
  if (!HOSTNAME.test(domain)) return `must be a bare hostname such as docs.example.com (got "${domain}")`;
  return undefined;
}

/** A `paths` entry: a page slug, prefix or glob, relative to the docs root. */
const pathEntry = z
  .string()
  .min(1, 'must not be empty')
  .max(512, 'must be at most 512 characters')
  .superRefine((p, ctx) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(p)) ctx.addIssue({ code: 'custom', message: `"${p}" must be a page path such as guides/intro, not a URL` });
    else if (p.includes('\\') || p.split('/').includes('..')) ctx.addIssue({ code: 'custom', message: `"${p}" must not contain ".." segments or backslashes` });
    // eslint-disable-next-line no-control-regex
    else if (/[\u0000-\u001f\s]/.test(p)) ctx.addIssue({ code: 'custom', message: `"${p}" must not contain spaces or control characters` });
  });

/**
 * Body of POST /v1/static-export/jobs. Unknown fields are ignored (issue 17): the published
 * schema does not forbid them, and a hosted client may send fields this appliance does not know.
 * The route logs their names, so a typo (`path` for `paths`, which exports the whole site) can
 * be found in the log.
 */
export const startExportBody = z.object({
  domain: z.string({ error: 'is required and must be a string' }).superRefine((d, ctx) => {
    const problem = domainProblem(d);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  version: z
    .string()
    .min(1, 'must not be empty')
    .max(128, 'must be at most 128 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  paths: z.array(pathEntry).min(1, 'must list at least one page path (omit it to export every page)').max(10_000, 'must list at most 10,000 entries').optional(),
  /** Export every page that renders and list the others in the job and the manifest, instead of failing. */
  keepGoing: z.boolean({ error: 'must be true or false' }).optional(),
});

export type StartExportBody = z.output<typeof startExportBody>;

/** Body of POST /v1/static-export/jobs/{jobId}/bundle (optional; the published operation has none). */
export const bundleBody = z.object({
  format: z.enum(BUNDLE_FORMATS, { error: `must be one of ${BUNDLE_FORMATS.map((f) => `"${f}"`).join(', ')}` }).optional(),
  /** Projects with reader access: the public pages only (default) or every page (issue 40). */
  include: z.enum(BUNDLE_INCLUDES, { error: `must be one of ${BUNDLE_INCLUDES.map((f) => `"${f}"`).join(', ')}` }).optional(),
});

/** Names of body fields a schema does not know (for the log; at most 10, each cut to 64 characters). */
export function unknownFields(body: unknown, known: readonly string[]): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.keys(body)
    .filter((k) => !known.includes(k))
    .slice(0, 10)
    .map((k) => k.slice(0, 64));
}
