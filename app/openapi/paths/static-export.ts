import { RENDER_WARNING_PROPERTIES } from '../render-warnings-schema.js';
import { EXPORT_JOB_STATUSES } from '../../../data/stores/export-jobs.js';
import { authErrors, bodyErrors, json } from '../components.js';

const jobId = {
  name: 'jobId',
  in: 'path',
  required: true,
  description: 'The job id returned by POST /v1/static-export/jobs (`se_` + 16 hex).',
  schema: { type: 'string' },
};

const requestId = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
const zipHeaders = {
  ...requestId,
  ETag: { description: 'Strong validator of the bundle (it never changes for a job).', schema: { type: 'string' } },
  'Accept-Ranges': { description: 'Always `bytes`.', schema: { type: 'string' } },
  'Content-Length': { description: 'Bytes in this response body.', schema: { type: 'integer' } },
};
const archive = (format: 'tar.gz' | 'zip') => {
  const type = format === 'zip' ? 'application/zip' : 'application/gzip';
  return { [type]: { schema: { type: 'string', contentMediaType: type } } };
};

const linkError = (description: string) => ({
  description,
  headers: requestId,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

export const staticExportSchemas = {
  StaticExportJob: {
    type: 'object',
    required: ['jobId', 'status', 'progress', 'pageCount', 'createdAt', 'updatedAt'],
    additionalProperties: false,
    properties: {
      jobId: { type: 'string', pattern: '^se_[0-9a-f]{16}$' },
      status: { enum: [...EXPORT_JOB_STATUSES] },
      progress: { type: 'number', minimum: 0, maximum: 100, description: 'Percent done; never decreases.' },
      pageCount: { type: 'integer', minimum: 0, description: 'Pages exported so far (all of them once completed).' },
      domain: { type: 'string', description: 'The exported project domain.' },
      version: { type: 'string', description: 'Label written into the bundle manifest: the requested version, else the git commit of the source, else the job id. Set once the job starts.' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      error: { type: 'string', description: 'Only when failed: what went wrong, naming the first failing files as file:line.' },
      keepGoing: { type: 'boolean', enum: [true], description: 'Present when the job was started with keepGoing.' },
      ...RENDER_WARNING_PROPERTIES,
      failureCount: { type: 'integer', minimum: 0, description: 'keepGoing jobs, once completed: how many pages were left out.' },
      failures: {
        type: 'array',
        maxItems: 100,
        description: 'keepGoing jobs, once completed: the first 100 pages left out (all of them are in the bundle’s manifest.json).',
        items: {
          type: 'object',
          required: ['file', 'message'],
          additionalProperties: false,
          properties: {
            path: { type: 'string', description: 'The page left out (its slug, as in `paths`).' },
            file: { type: 'string', description: 'The file with the error: the page, or a snippet it imports.' },
            line: { type: 'integer', minimum: 1 },
            column: { type: 'integer', minimum: 1 },
            message: { type: 'string' },
          },
        },
      },
    },
  },
  StartStaticExport: {
    type: 'object',
    required: ['domain'],
    properties: {
      domain: { type: 'string', description: 'Bare hostname of one of the organization’s projects (no scheme, port or path).' },
      version: { type: 'string', minLength: 1, maxLength: 128, description: 'Label for the export (what `staticExport.version` pins). Default: the source’s git commit, else the job id.' },
      paths: {
        type: 'array',
        minItems: 1,
        maxItems: 10000,
        items: { type: 'string', minLength: 1, maxLength: 512 },
        description: 'Only these pages: slugs (`guides/intro`), prefixes (`guides/`) or globs (`api/**`). Each must match a page.',
      },
      keepGoing: {
        type: 'boolean',
        description: 'Export every page that renders; pages that fail are left out and listed in the job (`failures`) and the manifest, instead of failing the job. Default false.',
      },
    },
  },
  StaticExportBundle: {
    type: 'object',
    required: ['jobId', 'bundleUrl', 'sizeBytes', 'expiresAt', 'format'],
    additionalProperties: false,
    properties: {
      jobId: { type: 'string' },
      bundleUrl: { type: 'string', format: 'uri', description: 'Signed link to the bundle (`…/bundle.tar.gz` or `…/bundle.zip`), served by the appliance; no Authorization header needed.' },
      sizeBytes: { type: 'integer', minimum: 0, description: 'Bytes of the bundle in this format.' },
      format: { enum: ['tar.gz', 'zip'], description: 'The archive format the link serves.' },
      expiresAt: { type: 'string', format: 'date-time' },
    },
  },
};

const download = (method: 'get' | 'head', format: 'tar.gz' | 'zip', all = false) => ({
  operationId: `${method === 'get' ? 'download' : 'head'}StaticExportBundle${all ? 'All' : ''}${format === 'zip' ? 'Zip' : 'TarGz'}`,
  summary: `${method === 'get' ? 'Download' : 'Headers of'} a bundle${all ? ' with every page of a project with reader access (`include: "all"`)' : ''} as ${format === 'zip' ? 'a zip' : 'a gzip-compressed tar'} through a signed link${method === 'head' ? ' (same link as GET)' : ''}`,
  tags: ['static export'],
  security: [],
  parameters: [
    jobId,
    { name: 'expires', in: 'query', required: true, description: 'Unix time (seconds) after which the link is refused.', schema: { type: 'string' } },
    { name: 'kid', in: 'query', required: true, description: 'Id of the signing key.', schema: { type: 'string' } },
    { name: 'signature', in: 'query', required: true, description: 'base64url HMAC-SHA256 of `GET\\n<path>\\n<expires>`.', schema: { type: 'string' } },
    { name: 'Range', in: 'header', required: false, description: 'One byte range, e.g. `bytes=0-1023`.', schema: { type: 'string' } },
  ],
  responses: {
    '200': { description: `The ${format} (streamed from disk)`, headers: zipHeaders, content: archive(format) },
    '206': {
      description: 'The requested byte range',
      headers: { ...zipHeaders, 'Content-Range': { description: '`bytes start-end/size`', schema: { type: 'string' } } },
      content: archive(format),
    },
    '304': { description: 'Not modified (If-None-Match matched the ETag)', headers: { ...requestId, ETag: zipHeaders.ETag } },
    '403': linkError('The link is expired, its signature, key id or expiry was tampered with, or it is not spelt exactly as issued (path case, trailing slash, escaped or repeated or extra parameters, leading zeros).'),
    '404': linkError('The job is unknown, or the retention policy removed its files.'),
    '412': linkError('An If-Match / If-Unmodified-Since condition failed.'),
    '416': {
      ...linkError('The Range lies outside the bundle.'),
      headers: { ...requestId, 'Content-Range': { description: '`bytes */size`', schema: { type: 'string' } } },
    },
    '500': { $ref: '#/components/responses/InternalError' },
  },
});

export const staticExportPaths = {
  '/v1/static-export/jobs': {
    post: {
      operationId: 'startStaticExportJob',
      summary: 'Start a static export of a project (enterprise plan)',
      description:
        'Queues an export. The queue is bounded: at most `staticExport.maxQueuedJobsPerOrg` (default 20) jobs of one organization and `staticExport.maxQueuedJobs` (default 100) in all wait as `queued`; past either, 429 with Retry-After and nothing is created.',
      tags: ['static export'],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/StartStaticExport' } } } },
      responses: {
        '202': json({ $ref: '#/components/schemas/StaticExportJob' }, 'Queued; poll GET /v1/static-export/jobs/{jobId}'),
        ...authErrors,
        ...bodyErrors,
        '429': { $ref: '#/components/responses/QueueFull' },
      },
    },
  },
  '/v1/static-export/jobs/{jobId}': {
    get: {
      operationId: 'getStaticExportJob',
      summary: 'Get a static export job with live progress (meant to be polled)',
      tags: ['static export'],
      parameters: [jobId],
      responses: {
        '200': json({ $ref: '#/components/schemas/StaticExportJob' }, 'The job'),
        ...authErrors,
        '404': { $ref: '#/components/responses/NotFound' },
      },
    },
  },
  '/v1/static-export/jobs/{jobId}/bundle': {
    post: {
      operationId: 'generateStaticExportBundle',
      summary: 'Sign a fresh download link for a completed job’s bundle',
      tags: ['static export'],
      description:
        'Signs a link to the bundle in one format: by default the gzip-compressed tar (`bundle.tar.gz`, what the hosted platform hands out); `{"format": "zip"}` for the zip. Both hold the same files and `manifest.json`. The body is optional, and unknown fields in it are ignored. 409 when the job is not completed, when the retention policy removed its files, and for a tar.gz of an export that predates them (EXPORT_FORMAT_UNAVAILABLE).',
      parameters: [jobId],
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                format: { enum: ['tar.gz', 'zip'], default: 'tar.gz', description: 'The archive format of the link.' },
                include: {
                  enum: ['public', 'all'],
                  default: 'public',
                  description:
                    'Projects with reader access (`auth`): `public` (default) links to a bundle with only the pages a signed-out reader may see; `all` to one with every page, restricted ones included (`…/bundle.all.tar.gz`). Neither carries access rules. Other projects: the same bundle either way.',
                },
              },
            },
          },
        },
      },
      responses: {
        '200': json({ $ref: '#/components/schemas/StaticExportBundle' }, 'A link valid until expiresAt (default one hour)'),
        ...authErrors,
        ...bodyErrors,
        '404': { $ref: '#/components/responses/NotFound' },
        '409': { $ref: '#/components/responses/Conflict' },
      },
    },
  },
  '/v1/static-export/jobs/{jobId}/bundle.tar.gz': {
    get: download('get', 'tar.gz'),
    head: download('head', 'tar.gz'),
  },
  '/v1/static-export/jobs/{jobId}/bundle.zip': {
    get: download('get', 'zip'),
    head: download('head', 'zip'),
  },
  '/v1/static-export/jobs/{jobId}/bundle.all.tar.gz': {
    get: download('get', 'tar.gz', true),
    head: download('head', 'tar.gz', true),
  },
  '/v1/static-export/jobs/{jobId}/bundle.all.zip': {
    get: download('get', 'zip', true),
    head: download('head', 'zip', true),
  },
};
