import { RENDER_WARNING_PROPERTIES } from '../render-warnings-schema.js';
import { PUBLISH_KINDS, PUBLISH_STATUSES, PUBLISH_TRIGGERS } from '../../../data/stores/publishes.js';
import { HOSTED_SOURCES } from '../../publish/status-view.js';
import { authErrors, bodyErrors, json } from '../components.js';

const projectId = { name: 'projectId', in: 'path', required: true, description: 'The project id (24 hex characters).', schema: { type: 'string' } };
const statusRef = (description: string) => json({ $ref: '#/components/schemas/UpdateStarted' }, description);
const rateHeaders = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};
const notFound = { '404': { $ref: '#/components/responses/NotFound' } };

export const publishSchemas = {
  UpdateStarted: {
    type: 'object',
    required: ['statusId'],
    additionalProperties: false,
    properties: { statusId: { type: 'string', pattern: '^[0-9a-f]{24}$', description: 'Poll GET /v1/project/update-status/{statusId}.' } },
  },
  PreviewStarted: {
    type: 'object',
    required: ['statusId', 'previewUrl'],
    additionalProperties: false,
    properties: {
      statusId: { type: 'string', pattern: '^[0-9a-f]{24}$' },
      previewUrl: { type: 'string', format: 'uri', description: 'Where the preview is served (`publish.previewHostPattern`), once the status says success.' },
    },
  },
  UpdateStatus: {
    type: 'object',
    required: ['_id', 'projectId', 'createdAt', 'status', 'summary', 'logs', 'subdomain', 'author', 'source', 'kind', 'trigger'],
    additionalProperties: false,
    properties: {
      _id: { type: 'string' },
      projectId: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      endedAt: { type: 'string', format: 'date-time', description: 'Present once the work has ended.' },
      status: { enum: [...PUBLISH_STATUSES] },
      summary: { type: 'string', description: 'What happened; on failure the reason, naming the failing file as file:line.' },
      logs: { type: 'array', items: { type: 'string' } },
      subdomain: { type: 'string', description: 'The host name updated: the project’s domain, or the preview host.' },
      author: { type: ['object', 'null'], properties: { name: { type: 'string' } } },
      commit: {
        type: 'object',
        required: ['sha'],
        properties: {
          sha: { type: 'string' },
          ref: { type: 'string' },
          message: { type: 'string' },
          filesChanged: {
            type: 'object',
            properties: { added: { type: 'array', items: { type: 'string' } }, modified: { type: 'array', items: { type: 'string' } }, removed: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
      source: { enum: [...HOSTED_SOURCES], description: 'The hosted trigger names; `trigger` has the exact one.' },
      kind: { enum: [...PUBLISH_KINDS] },
      trigger: { enum: [...PUBLISH_TRIGGERS], description: 'What started it: the API, the CLI, the console, the branch poll or a Git host’s webhook.' },
      branch: { type: ['string', 'null'] },
      version: { type: ['string', 'null'], description: 'The site version this built or restored.' },
      durationMs: { type: ['integer', 'null'], minimum: 0 },
      stages: {
        type: 'object',
        additionalProperties: false,
        description: 'Once the work has ended: wall milliseconds per stage. A failed publish has the stages it finished. `exportStages` are the renderer’s own stages inside `export`.',
        properties: {
          source: { type: 'integer', minimum: 0, description: 'Git checkout or fetch, or reading the source directory.' },
          export: { type: 'integer', minimum: 0, description: 'The render of the whole site to a bundle.' },
          verify: { type: 'integer', minimum: 0, description: 'The bundle checked and extracted, as any bundle the loader serves.' },
          activate: { type: 'integer', minimum: 0, description: 'The atomic swap to the new version.' },
          exportStages: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
          render: {
            type: 'object',
            additionalProperties: false,
            required: ['mode', 'pagesRendered', 'pagesReused'],
            description: 'Which render ran: `incremental` when pages unchanged since the last export of this site (same inputs, same files read) were reused instead of rendered, else `full`. Both give the same bundle.',
            properties: {
              mode: { enum: ['incremental', 'full'] },
              pagesRendered: { type: 'integer', minimum: 0 },
              pagesReused: { type: 'integer', minimum: 0 },
            },
          },
        },
      },
      previewUrl: { type: 'string', format: 'uri' },
      ...RENDER_WARNING_PROPERTIES,
    },
  },
  SiteVersions: {
    type: 'object',
    required: ['projectId', 'domain', 'versions', 'previews'],
    additionalProperties: false,
    properties: {
      projectId: { type: 'string' },
      domain: { type: 'string' },
      versions: {
        type: 'array',
        items: {
          type: 'object',
          required: ['version', 'active', 'createdAt', 'pageCount', 'lastActivated'],
          additionalProperties: false,
          properties: {
            version: { type: 'string' },
            active: { type: 'boolean' },
            createdAt: { type: ['string', 'null'] },
            pageCount: { type: ['integer', 'null'] },
            lastActivated: { type: 'string', format: 'date-time' },
          },
        },
      },
      previews: {
        type: 'array',
        items: {
          type: 'object',
          required: ['host', 'branch', 'version', 'expiresAt', 'previewUrl'],
          additionalProperties: false,
          properties: { host: { type: 'string' }, branch: { type: 'string' }, version: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' }, previewUrl: { type: 'string', format: 'uri' } },
        },
      },
    },
  },
};

export const publishPaths = {
  '/v1/project/update/{projectId}': {
    post: {
      operationId: 'triggerUpdate',
      summary: 'Publish the project’s source (every plan)',
      description:
        'Exports the project’s source (its directory, or its branch on the Git host) and makes it the site served at the project’s domain, through the loader’s verification and atomic swap. One publish at a time per project; a trigger while one waits returns that one’s statusId. A failure never replaces what is served.',
      tags: ['publish'],
      parameters: [projectId],
      responses: { '202': statusRef('Queued; poll GET /v1/project/update-status/{statusId}'), ...notFound, ...authErrors },
    },
  },
  '/v1/project/update-status/{statusId}': {
    get: {
      operationId: 'getUpdateStatus',
      summary: 'Status of a publish, preview deployment or rollback',
      tags: ['publish'],
      parameters: [{ name: 'statusId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': json({ $ref: '#/components/schemas/UpdateStatus' }, 'The status'), ...notFound, ...authErrors },
    },
  },
  '/v1/project/preview/{projectId}': {
    post: {
      operationId: 'triggerPreview',
      summary: 'Deploy a branch at its preview host (enterprise plan)',
      description: 'At most 5 requests per minute per organization. The preview is served with `X-Robots-Tag: noindex, nofollow` and removed `publish.previewTtlHours` after its last deployment.',
      tags: ['publish'],
      parameters: [projectId],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['branch'], properties: { branch: { type: 'string', minLength: 1 } } } } } },
      responses: {
        '202': json({ $ref: '#/components/schemas/PreviewStarted' }, 'Queued', rateHeaders),
        '429': { $ref: '#/components/responses/TooManyRequests' },
        ...notFound,
        ...authErrors,
        ...bodyErrors,
      },
    },
  },
  '/v1/project/rollback/{projectId}': {
    post: {
      operationId: 'rollbackSite',
      summary: 'Make a kept version the project’s site again (appliance extension)',
      tags: ['publish'],
      parameters: [projectId],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['version'], properties: { version: { type: 'string', minLength: 1 } } } } } },
      responses: { '202': statusRef('Queued; poll GET /v1/project/update-status/{statusId}'), ...notFound, ...authErrors, ...bodyErrors },
    },
  },
  '/v1/project/versions/{projectId}': {
    get: {
      operationId: 'listSiteVersions',
      summary: 'Kept versions of the project’s site and its live previews (appliance extension)',
      tags: ['publish'],
      parameters: [projectId],
      responses: { '200': json({ $ref: '#/components/schemas/SiteVersions' }, 'Kept versions, newest activation first'), ...notFound, ...authErrors },
    },
  },
  '/hooks/git/{projectId}': {
    post: {
      operationId: 'gitPushWebhook',
      summary: 'Push webhook of Gitea, GitLab or GitHub Enterprise (no admin key)',
      description:
        'Verified by `X-Gitea-Signature` / `X-Hub-Signature-256` (HMAC-SHA256 of the body) or `X-Gitlab-Token`, with the project’s secret (`projects[].publish.webhookSecretEnv`). A delivery id and a pushed commit are acted on once.',
      tags: ['publish'],
      security: [],
      parameters: [projectId],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': json({ type: 'object', required: ['ignored'], properties: { ignored: { type: 'string' } } }, 'Nothing to do (not a push, another branch, a replay)'),
        '202': json({ type: 'object', required: ['statusId'], properties: { statusId: { type: 'string' }, previewUrl: { type: 'string' } } }, 'Publishing (or redeploying a preview)'),
        '400': { $ref: '#/components/responses/BadRequest' },
        '401': json({ $ref: '#/components/schemas/Error' }, 'No signature or token header, or it does not match the project’s secret'),
        '403': json({ $ref: '#/components/schemas/Error' }, 'Webhooks are not enabled for this project (no secret configured)'),
        '404': { $ref: '#/components/responses/NotFound' },
        '413': { $ref: '#/components/responses/PayloadTooLarge' },
        '500': { $ref: '#/components/responses/InternalError' },
        '503': { $ref: '#/components/responses/StorageUnavailable' },
      },
    },
  },
  '/v1/replica/sites': {
    get: {
      operationId: 'replicaSites',
      summary: 'Active version of every published site the replica key reaches, for serving replicas (replica key only)',
      description:
        'A replica key reaches the sites of its own organization, or of every organization when it was made with `keys create --scopes replica --all-organizations`. With `If-None-Match` (the last ETag) and `wait` (seconds, at most 120), the request is held until one of those versions changes (200) or the wait ends (304).',
      tags: ['replica'],
      parameters: [{ name: 'wait', in: 'query', required: false, schema: { type: 'integer', minimum: 0, maximum: 120 } }],
      responses: {
        '200': json(
          {
            type: 'object',
            required: ['sites'],
            properties: {
              sites: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['projectId', 'domain', 'version', 'dirName', 'activatedAt', 'bundlePath'],
                  properties: {
                    projectId: { type: 'string' },
                    domain: { type: 'string' },
                    version: { type: 'string' },
                    dirName: { type: 'string' },
                    activatedAt: { type: 'string' },
                    bundlePath: { type: 'string' },
                    readerAccess: {
                      type: 'object',
                      description: 'Present for a project with `auth`: what a replica checks its reader sessions with (no secret).',
                      required: ['method', 'idleMinutes'],
                      properties: { method: { type: 'string', enum: ['jwt', 'oauth', 'password'] }, loginUrl: { type: 'string' }, idleMinutes: { type: 'integer' } },
                    },
                  },
                },
              },
            },
          },
          'The active versions',
          { ETag: { description: 'Changes whenever a version does.', schema: { type: 'string' } } },
        ),
        '304': { description: 'Nothing changed during the wait', headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } } },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '403': { $ref: '#/components/responses/Forbidden' },
        '500': { $ref: '#/components/responses/InternalError' },
      },
    },
  },
  '/v1/replica/sites/{projectId}/{dirName}/bundle.zip': {
    get: {
      operationId: 'replicaBundle',
      summary: 'The verified archive of the version served (replica key only)',
      description:
        'Downloadable: the active version of a project the key reaches, and for 120 s after an activation the version it replaced. Any other version, kept or not, and any project the key does not reach, is 404.',
      tags: ['replica'],
      parameters: [projectId, { name: 'dirName', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The zip', headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } }, content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } } },
        '400': { $ref: '#/components/responses/BadRequest' },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '403': { $ref: '#/components/responses/Forbidden' },
        '404': { $ref: '#/components/responses/NotFound' },
        '500': { $ref: '#/components/responses/InternalError' },
      },
    },
  },
  '/v1/replica/reader-sessions/ended': {
    get: {
      operationId: 'replicaEndedReaderSessions',
      summary: 'Reader sessions that ended before their absolute end, after a journal number (replica key only)',
      description:
        'Revoked, signed-out and idle sessions of projects the key reaches, oldest first, at most 1000 per answer (`more` says another page waits). Idle sessions are swept before answering. A replica keeps `cursor` and asks with `after=<cursor>`; a cursor past the journal (a replaced publisher) starts again from 0 (`reset`). Entries are kept until the session’s absolute end.',
      tags: ['replica'],
      parameters: [
        { name: 'after', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } },
      ],
      responses: {
        '200': json(
          {
            type: 'object',
            required: ['ended', 'cursor', 'more'],
            properties: {
              ended: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['id', 'projectId', 'reason', 'expiresAt'],
                  properties: { id: { type: 'string', description: 'SHA-256 of the session id (hex)' }, projectId: { type: 'string' }, reason: { type: 'string', enum: ['revoked', 'signed-out', 'idle'] }, expiresAt: { type: 'string', format: 'date-time' } },
                },
              },
              cursor: { type: 'integer', minimum: 0 },
              more: { type: 'boolean' },
              reset: { type: 'boolean' },
            },
          },
          'The ended sessions after the cursor',
        ),
        '400': { $ref: '#/components/responses/BadRequest' },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '403': { $ref: '#/components/responses/Forbidden' },
        '500': { $ref: '#/components/responses/InternalError' },
      },
    },
  },
  '/v1/replica/reader-sessions/seen': {
    post: {
      operationId: 'replicaReaderSessionsSeen',
      summary: 'A replica reports when it last served reader sessions, for idle expiry (replica key only)',
      description: 'At most 1000 reports; each moves the session’s last seen forward (never past the publisher’s now). Unknown or ended sessions, and projects the key does not reach, are ignored.',
      tags: ['replica'],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['seen'],
              properties: {
                seen: { type: 'array', maxItems: 1000, items: { type: 'object', required: ['id', 'projectId', 'at'], properties: { id: { type: 'string', pattern: '^[0-9a-f]{64}$' }, projectId: { type: 'string' }, at: { type: 'string', format: 'date-time' } } } },
              },
            },
          },
        },
      },
      responses: {
        '204': { description: 'Recorded', headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } } },
        '400': { $ref: '#/components/responses/BadRequest' },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '403': { $ref: '#/components/responses/Forbidden' },
        '413': { $ref: '#/components/responses/PayloadTooLarge' },
        '500': { $ref: '#/components/responses/InternalError' },
      },
    },
  },
};
