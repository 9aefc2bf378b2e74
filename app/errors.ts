/**
 * The one catalogue of errors the API answers with. Every error response is built from an
 * ApiError by the error middleware, which picks the body family by route (DESIGN 3.1):
 * `{error}` everywhere, `{error, details}` under /v1/analytics.
 */
export interface ErrorDetail {
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;
  /** Fields a JSON body carries beside `error` and `code` (the editor's conflict details). */
  readonly extra: Record<string, unknown>;
  constructor(status: number, code: string, message: string, opts: { details?: ErrorDetail[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = opts.details ?? [];
    this.headers = opts.headers ?? {};
    this.extra = opts.extra ?? {};
  }
}

const BEARER = { 'WWW-Authenticate': 'Bearer realm="docs-appliance"' };

export const errors = {
  missingKey: () => new ApiError(401, 'MISSING_KEY', 'Missing admin API key: send "Authorization: Bearer <key>"', { headers: BEARER }),
  invalidKey: () => new ApiError(401, 'INVALID_KEY', 'Invalid admin API key', { headers: { 'WWW-Authenticate': 'Bearer realm="docs-appliance", error="invalid_token"' } }),
  revokedKey: () => new ApiError(401, 'REVOKED_KEY', 'Admin API key has been revoked', { headers: { 'WWW-Authenticate': 'Bearer realm="docs-appliance", error="invalid_token"' } }),
  expiredKey: () => new ApiError(401, 'EXPIRED_KEY', 'Admin API key has expired', { headers: { 'WWW-Authenticate': 'Bearer realm="docs-appliance", error="invalid_token"' } }),
  missingScope: (scope: string) => new ApiError(403, 'MISSING_SCOPE', `Admin API key lacks the "${scope}" scope`),
  planRequired: (plan: string, feature: string) => new ApiError(403, 'PLAN_REQUIRED', `${feature} requires the ${plan} plan`),
  projectNotFound: () => new ApiError(404, 'PROJECT_NOT_FOUND', 'Project not found'),
  jobNotFound: () => new ApiError(404, 'JOB_NOT_FOUND', 'Job not found'),
  routeNotFound: (method: string, path: string) => new ApiError(404, 'ROUTE_NOT_FOUND', `No route for ${method} ${path}`),
  /** A project published from git only has no directory to export (the static export reads a directory). */
  noSourceDir: (domain: string) => new ApiError(400, 'BAD_REQUEST', `Invalid body: domain: the project of "${domain}" has no sourceDir (it is published from git): set its sourceDir in the config to export it`),
  badRequest: (message: string, details?: ErrorDetail[]) => new ApiError(400, 'BAD_REQUEST', message, details ? { details } : {}),
  malformedJson: (reason: string) => new ApiError(400, 'MALFORMED_JSON', `Malformed JSON body: ${reason}`, { details: [{ message: reason }] }),
  undecodableBody: (encoding: string) => new ApiError(400, 'UNDECODABLE_BODY', `Request body could not be decoded as its Content-Encoding (${encoding}) says`),
  payloadTooLarge: (limitBytes: number) => new ApiError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${limitBytes} bytes`),
  unsupportedMediaType: (got: string) => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json (got ${got || 'none'})`),
  conflict: (code: string, message: string) => new ApiError(409, code, message),
  forbidden: (code: string, message: string) => new ApiError(403, code, message),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(429, 'RATE_LIMITED', `Rate limit exceeded; retry in ${retryAfterSeconds} s`, { headers: { 'Retry-After': String(retryAfterSeconds) } }),
  queueFull: (message: string, retryAfterSeconds: number) =>
    new ApiError(429, 'QUEUE_FULL', `${message}; nothing was created. Retry in ${retryAfterSeconds} s`, { headers: { 'Retry-After': String(retryAfterSeconds) } }),
  updateStatusNotFound: () => new ApiError(404, 'UPDATE_STATUS_NOT_FOUND', 'Update status not found'),
  publishRefused: (message: string) => new ApiError(400, 'PUBLISH_REFUSED', message),
  // Automations (app/automations): the hosted trigger answers 400 for a trigger it does not take.
  automationNotFound: () => new ApiError(404, 'AUTOMATION_NOT_FOUND', 'Automation not found in this project'),
  automationNotTriggerable: (message: string) => new ApiError(400, 'AUTOMATION_NOT_TRIGGERABLE', message),
  automationRunning: (runId: string) => new ApiError(409, 'AUTOMATION_RUNNING', `Run ${runId} of this automation is still running; trigger it again once that run has ended`),
  contextUnavailable: (message: string) => new ApiError(502, 'CONTEXT_UNAVAILABLE', `The run could not read its context repositories; nothing was started: ${message}`),
  webhookUnauthorized: (message: string) => new ApiError(401, 'WEBHOOK_SIGNATURE', message),
  internal: () => new ApiError(500, 'INTERNAL', 'Internal server error'),
  // The admin console (app/console): shown as pages, with the same codes and statuses.
  csrfRejected: () => new ApiError(403, 'CSRF_REJECTED', 'The form expired or did not come from this console; reload the page and try again'),
  signInRequired: () => new ApiError(401, 'SIGN_IN_REQUIRED', 'Sign in to the console first'),
  writeRoleRequired: () => new ApiError(403, 'WRITE_ROLE_REQUIRED', 'This change needs the write role in this organization'),
  signInFailed: (why: string) => new ApiError(401, 'SIGN_IN_FAILED', why),
  storageFull: () =>
    new ApiError(503, 'STORAGE_FULL', "The appliance's storage is full; nothing was saved. Free space in its state directory, then retry", {
      headers: { 'Retry-After': '60' },
    }),
  storageReadOnly: () =>
    new ApiError(503, 'STORAGE_READ_ONLY', "The appliance's state directory is read-only; nothing was saved. Make it writable, then retry", {
      headers: { 'Retry-After': '60' },
    }),
  storageBusy: () => new ApiError(503, 'STORAGE_BUSY', 'The database is busy; nothing was saved. Retry shortly', { headers: { 'Retry-After': '1' } }),
  assistantOff: () => new ApiError(503, 'ASSISTANT_OFF', 'The assistant is not configured on this appliance: the operator sets assistant.baseUrl and assistant.model (docs/assistant.md)'),
  siteNotServed: () => new ApiError(503, 'NO_SITE', 'No documentation site is being served yet', { headers: { 'Retry-After': '30' } }),
  searchIndexBuilding: (retryAfterSeconds: number) =>
    new ApiError(503, 'SEARCH_INDEX_BUILDING', `The search index of this site is still being built; retry in ${retryAfterSeconds} s`, { headers: { 'Retry-After': String(retryAfterSeconds) } }),
  retrievalBusy: () => new ApiError(503, 'RETRIEVAL_BUSY', 'Search is answering as many queries as it may at once; retry shortly', { headers: { 'Retry-After': '2' } }),
  assistantBusy: () => new ApiError(503, 'ASSISTANT_BUSY', 'The assistant is answering as many questions as it may at once; retry shortly', { headers: { 'Retry-After': '5' } }),
  assistantClientBusy: (limit: number) =>
    new ApiError(429, 'ASSISTANT_CLIENT_BUSY', `This address already has ${limit} question(s) being answered; wait for an answer, then ask again`, { headers: { 'Retry-After': '5' } }),
  invalidAssistantKey: () => new ApiError(401, 'INVALID_KEY', 'Missing or invalid assistant API key: send "Authorization: Bearer mint_dsc_…"', { headers: { 'WWW-Authenticate': 'Bearer realm="docs-appliance", error="invalid_token"' } }),
  threadNotFound: () => new ApiError(404, 'THREAD_NOT_FOUND', 'Thread not found'),
  domainNotFound: () => new ApiError(404, 'DOMAIN_NOT_FOUND', 'No project with this domain for this assistant key'),
  // The API playground's proxy on the site listener (app/site/playground-proxy.ts). Messages name an origin at most, never a path or query.
  playgroundProxyOff: () => new ApiError(403, 'PLAYGROUND_PROXY_OFF', "This site's operator has not turned the playground proxy on"),
  playgroundCrossSite: () => new ApiError(403, 'PLAYGROUND_CROSS_SITE', "The playground proxy answers only this site's own pages"),
  playgroundBadTarget: () => new ApiError(400, 'PLAYGROUND_BAD_TARGET', 'X-Playground-Url must be an absolute http:// or https:// URL'),
  playgroundOriginNotAllowed: (origin: string) =>
    new ApiError(403, 'ORIGIN_NOT_ALLOWED', `${origin} is not an API origin this site's operator allowed for the playground; nothing was sent`),
  playgroundBusy: () => new ApiError(503, 'PLAYGROUND_BUSY', 'Too many playground requests are in flight for this site; retry shortly', { headers: { 'Retry-After': '1' } }),
  playgroundClientBusy: (limit: number) =>
    new ApiError(429, 'PLAYGROUND_CLIENT_BUSY', `This address already has ${limit} playground requests in flight for this site; retry when one has finished`, { headers: { 'Retry-After': '1' } }),
  bodyTimeout: (ms: number) => new ApiError(408, 'BODY_TIMEOUT', `The request body did not arrive within ${ms} ms; nothing was sent`),
  playgroundTimeout: (origin: string, ms: number) => new ApiError(504, 'PLAYGROUND_TIMEOUT', `${origin} did not answer within ${ms} ms`),
  playgroundUnreachable: (origin: string, code?: string) =>
    new ApiError(502, 'PLAYGROUND_UNREACHABLE', `${origin} could not be reached from the appliance${code && /^[A-Z_]+$/.test(code) ? ` (${code})` : ''}`),
  // The web editor (app/editor, docs/editor.md): its JSON API answers `{error, code, ...extra}`.
  editConflict: (conflict: Record<string, unknown>) =>
    new ApiError(409, 'EDIT_CONFLICT', 'This file changed on the branch since you opened it; nothing was saved. Compare the other change and merge, or save on a new branch', { extra: { conflict } }),
  mergeConflict: (files: string[]) =>
    new ApiError(409, 'MERGE_CONFLICT', `The branch does not merge cleanly into the default branch (${files.length} file(s) conflict); nothing was published. Bring the branch up to date, then publish`, { extra: { files } }),
  branchExists: (name: string) => new ApiError(409, 'BRANCH_EXISTS', `A branch named "${name}" already exists`),
  branchNotFound: (name: string) => new ApiError(404, 'BRANCH_NOT_FOUND', `No branch "${name}" in the project's repository`),
  notAGitSource: () => new ApiError(409, 'NOT_A_GIT_SOURCE', 'This project is published from a directory, not from Git: it has no branches, previews or pull requests'),
  noEditableSource: () => new ApiError(409, 'NO_EDITABLE_SOURCE', 'This project has neither a Git source (publish.source "git" with a repository) nor a sourceDir; there is nothing to edit'),
  editorPathRefused: (why: string) => new ApiError(400, 'EDITOR_PATH_REFUSED', `Path refused: ${why}`),
  editorFileNotFound: (rel: string) => new ApiError(404, 'EDITOR_FILE_NOT_FOUND', `No file ${rel} in the docs root`),
  editorFileExists: (rel: string) => new ApiError(409, 'EDITOR_FILE_EXISTS', `${rel} already exists; open it instead of creating it`),
  editorUploadRefused: (why: string) => new ApiError(415, 'EDITOR_UPLOAD_REFUSED', `Upload refused: ${why}`),
  editorPreviewUnavailable: () => new ApiError(503, 'EDITOR_PREVIEW_UNAVAILABLE', 'The live preview is not available on this appliance', { headers: { 'Retry-After': '30' } }),
  editorGitFailed: (message: string) => new ApiError(502, 'EDITOR_GIT_FAILED', `The project's Git repository answered with an error; nothing was changed: ${message}`),
  editorNoGitHost: () => new ApiError(409, 'NO_GIT_HOST', 'The project has no gitHost configured, so no pull request can be opened (set projects[].gitHost)'),
  editorConfigInvalid: (file: string, message: string, line?: number, column?: number) =>
    new ApiError(422, 'EDITOR_CONFIG_INVALID', `${file}${line ? `:${line}${column ? `:${column}` : ''}` : ''}: ${message}; the site would not build, so nothing was saved`, {
      extra: { file, ...(line ? { line } : {}), ...(column ? { column } : {}) },
    }),
  editorGitHostFailed: (message: string) => new ApiError(502, 'GIT_HOST_FAILED', `The Git host refused the pull request: ${message}`),
  playgroundResponseTooLarge: (limitBytes: number) => new ApiError(502, 'PLAYGROUND_RESPONSE_TOO_LARGE', `The API's answer exceeds the playground proxy's limit of ${limitBytes} bytes`),
};

/**
 * Storage faults are the operator's to fix, not bugs: a full disk, a read-only mount, a database
 * locked past its timeout. They answer 503 with what to do and a Retry-After, so a client script
 * backs off and retries, instead of a bare 500. The failed write is one transaction: nothing half-saved.
 */
export function storageError(err: unknown): ApiError | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return errors.storageFull();
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') return errors.storageReadOnly();
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return errors.storageBusy();
  return undefined;
}

/** Turn validation problems (zod issues or plain strings) into a 400 with one detail per problem. */
export function invalidInput(what: string, problems: string[]): ApiError {
  const details = problems.map((message) => ({ message }));
  return new ApiError(400, 'INVALID_INPUT', problems.length === 1 ? `Invalid ${what}: ${problems[0]}` : `Invalid ${what}: ${problems.join('; ')}`, { details });
}
