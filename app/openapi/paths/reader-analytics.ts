import { FEEDBACK_SOURCES, FEEDBACK_STATUSES } from '../../../data/stores/page-feedback.js';
import { json } from '../components.js';
import { dateParam, limited, rateLimitHeaders } from './analytics.js';

const SHARED_LIMIT =
  'Rate limit: shared with every /v1/analytics route (`analytics.rateLimitPerHour`, default 100 requests per organization per rolling hour).';
const project = { name: 'projectId', in: 'path', required: true, description: 'The project id (24 hex characters).', schema: { type: 'string' } };
const dates = [
  dateParam('dateFrom', 'Inclusive lower bound: ISO 8601 date-time (offset honoured; none = UTC) or YYYY-MM-DD (midnight UTC). Omitted: unbounded.'),
  dateParam('dateTo', '`dateTo` is an exclusive upper limit: results include dates before, but not on, it. Same forms as dateFrom. Omitted: unbounded.'),
];
const sourceParam = {
  name: 'source',
  in: 'query',
  required: false,
  description: 'Filter by feedback source.',
  schema: { type: 'string', enum: [...FEEDBACK_SOURCES] },
};
const statusParam = {
  name: 'status',
  in: 'query',
  required: false,
  description: 'Comma-separated list of statuses to filter by (pending, in_progress, resolved, dismissed).',
  schema: { type: 'string' },
};
const errors = {
  '400': limited('Invalid parameter: one detail per problem.'),
  '401': { $ref: '#/components/responses/AnalyticsUnauthorized' },
  '403': { $ref: '#/components/responses/AnalyticsForbidden' },
  '404': limited('Unknown project, or one of another organization.'),
  '429': limited('More than the hourly limit of the organization.', { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
  '500': { $ref: '#/components/responses/AnalyticsInternalError' },
  '503': { $ref: '#/components/responses/AnalyticsStorageUnavailable' },
};
const split = (what: string) => ({
  type: 'object',
  required: ['human', 'ai', 'total'],
  additionalProperties: false,
  properties: {
    human: { type: 'integer', minimum: 0, description: `${what} from human traffic (browsers that ran the page's script).` },
    ai: { type: 'integer', minimum: 0, description: `${what} from AI crawlers and agents (counted by the site listener).` },
    total: { type: 'integer', minimum: 0, description: `All ${what.toLowerCase()}.` },
  },
});
const trafficRow = (what: string) => ({
  type: 'object',
  required: ['path', 'human', 'ai', 'total'],
  additionalProperties: false,
  properties: { path: { type: 'string', description: 'The page path (no trailing slash, `.md`/`.html` versions folded in).' }, ...split(what).properties },
});
const VISITORS_NOTE =
  'Unique visitors are counted per UTC day, without cookies or stored addresses (a daily-salted hash of IP address, user agent and site; the salt is discarded after its day): a range of several days reports the **sum of daily unique visitors**, not distinct visitors over the whole range. `total` is deduplicated across human and AI within a day. Within a partial day (a date-time bound), a visitor counts in the hour of its first view that day.';

const feedbackBase = {
  id: { type: 'string' },
  path: { type: 'string' },
  comment: { type: ['string', 'null'], description: 'The reason the reader picked and the text they typed (at most 1,000 characters), reason first.' },
  createdAt: { type: ['string', 'null'], format: 'date-time' },
  source: { type: 'string', enum: [...FEEDBACK_SOURCES] },
  status: { type: 'string', enum: [...FEEDBACK_STATUSES] },
};
const baseRequired = ['id', 'path', 'comment', 'createdAt', 'source', 'status'];

export const readerAnalyticsSchemas = {
  ViewsResponse: {
    type: 'object',
    required: ['totals', 'views', 'hasMore'],
    additionalProperties: false,
    properties: {
      totals: split('Site-wide page views'),
      views: { type: 'array', items: trafficRow('Page views'), description: 'Ordered by total descending, then path (UTF-8 byte order).' },
      hasMore: { type: 'boolean' },
    },
  },
  VisitorsResponse: {
    type: 'object',
    required: ['totals', 'visitors', 'hasMore'],
    additionalProperties: false,
    properties: {
      totals: split('Site-wide unique visitors (sum of daily uniques)'),
      visitors: { type: 'array', items: trafficRow('Unique visitors (sum of daily uniques)'), description: 'Ordered by total descending, then path.' },
      hasMore: { type: 'boolean' },
    },
  },
  FeedbackEntry: {
    anyOf: [
      {
        type: 'object',
        description: 'source contextual: a rating with a reason and/or comment. `contact` is always null (the appliance collects no email addresses).',
        required: [...baseRequired, 'helpful', 'contact'],
        additionalProperties: false,
        properties: { ...feedbackBase, helpful: { type: 'boolean' }, contact: { type: ['string', 'null'] } },
      },
      {
        type: 'object',
        description: 'source code_snippet: feedback on a code block.',
        required: [...baseRequired, 'code', 'filename', 'lang'],
        additionalProperties: false,
        properties: { ...feedbackBase, code: { type: 'string' }, filename: { type: ['string', 'null'] }, lang: { type: ['string', 'null'] } },
      },
      {
        type: 'object',
        description: 'source thumbs_only (with `helpful`) or agent.',
        required: baseRequired,
        additionalProperties: false,
        properties: { ...feedbackBase, helpful: { type: 'boolean' } },
      },
    ],
  },
  FeedbackListResponse: {
    type: 'object',
    required: ['feedback', 'nextCursor', 'hasMore'],
    additionalProperties: false,
    properties: {
      feedback: { type: 'array', items: { $ref: '#/components/schemas/FeedbackEntry' }, description: 'Newest first.' },
      nextCursor: { type: ['string', 'null'] },
      hasMore: { type: 'boolean' },
    },
  },
  FeedbackByPageResponse: {
    type: 'object',
    required: ['feedback', 'hasMore'],
    additionalProperties: false,
    properties: {
      feedback: {
        type: 'array',
        description: 'Ordered by total descending, then path.',
        items: {
          type: 'object',
          required: ['path', 'thumbsUp', 'thumbsDown', 'code', 'total'],
          additionalProperties: false,
          properties: {
            path: { type: 'string' },
            thumbsUp: { type: 'integer', minimum: 0, description: 'Helpful votes (thumbs_only and contextual).' },
            thumbsDown: { type: 'integer', minimum: 0 },
            code: { type: 'integer', minimum: 0, description: 'Code snippet feedback entries.' },
            total: { type: 'integer', minimum: 0 },
          },
        },
      },
      hasMore: { type: 'boolean' },
    },
  },
};

const trafficParams = [
  project,
  ...dates,
  { name: 'limit', in: 'query', required: false, description: 'Max results per page.', schema: { type: 'integer', minimum: 1, maximum: 250, default: 50 } },
  { name: 'offset', in: 'query', required: false, description: 'Rows to skip; increment by limit while hasMore is true.', schema: { type: 'integer', minimum: 0, default: 0 } },
];

export const readerAnalyticsPaths = {
  '/v1/analytics/{projectId}/views': {
    get: {
      operationId: 'getPageViews',
      summary: 'Page views per path and site-wide, split by human and AI traffic',
      description: `A view is one navigation in a browser (the page's beacon) or one page (HTML or Markdown) served to an AI agent. ${SHARED_LIMIT}`,
      tags: ['analytics'],
      parameters: trafficParams,
      responses: { '200': json({ $ref: '#/components/schemas/ViewsResponse' }, 'Totals and one page of paths', rateLimitHeaders), ...errors },
    },
  },
  '/v1/analytics/{projectId}/visitors': {
    get: {
      operationId: 'getUniqueVisitors',
      summary: 'Unique visitors per path and site-wide, split by human and AI traffic',
      description: `${VISITORS_NOTE} ${SHARED_LIMIT}`,
      tags: ['analytics'],
      parameters: trafficParams,
      responses: { '200': json({ $ref: '#/components/schemas/VisitorsResponse' }, 'Totals and one page of paths', rateLimitHeaders), ...errors },
    },
  },
  '/v1/analytics/{projectId}/feedback': {
    get: {
      operationId: 'getFeedback',
      summary: 'Page and code snippet feedback, newest first',
      description: `Comments are shown only to admin keys of the project's organization. ${SHARED_LIMIT}`,
      tags: ['analytics'],
      parameters: [
        project,
        ...dates,
        sourceParam,
        statusParam,
        { name: 'limit', in: 'query', required: false, description: 'Max results per page.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
        { name: 'cursor', in: 'query', required: false, description: 'nextCursor of the previous page.', schema: { type: 'string' } },
      ],
      responses: { '200': json({ $ref: '#/components/schemas/FeedbackListResponse' }, 'One page of feedback', rateLimitHeaders), ...errors },
    },
  },
  '/v1/analytics/{projectId}/feedback/by-page': {
    get: {
      operationId: 'getFeedbackByPage',
      summary: 'Feedback counts per page',
      description: SHARED_LIMIT,
      tags: ['analytics'],
      parameters: [
        project,
        ...dates,
        { name: 'limit', in: 'query', required: false, description: 'Max results per page.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
        sourceParam,
        statusParam,
      ],
      responses: { '200': json({ $ref: '#/components/schemas/FeedbackByPageResponse' }, 'Pages with feedback', rateLimitHeaders), ...errors },
    },
  },
};
