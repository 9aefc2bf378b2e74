import { json } from '../components.js';

/* The assistant operations of the analytics document (issue 21; docs/assistant.md). */

const rateLimitHeaders = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

const limited = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ...rateLimitHeaders, ...extra },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/AnalyticsError' } } },
});

const projectId = { name: 'projectId', in: 'path', required: true, description: 'The project id (24 hex characters).', schema: { type: 'string' } };
const dateParam = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string', examples: ['2026-11-01'] } });
const dates = [
  dateParam('dateFrom', 'Inclusive lower bound: ISO 8601 date-time or YYYY-MM-DD (midnight UTC). Omitted: unbounded.'),
  dateParam('dateTo', 'Exclusive upper bound, same forms; must be after dateFrom. Omitted: unbounded.'),
];
const errors = {
  '401': { $ref: '#/components/responses/AnalyticsUnauthorized' },
  '403': { $ref: '#/components/responses/AnalyticsForbidden' },
  '429': limited('More than the hourly limit of the organization.', { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
  '500': { $ref: '#/components/responses/AnalyticsInternalError' },
  '503': { $ref: '#/components/responses/AnalyticsStorageUnavailable' },
};
const source = { type: 'object', required: ['title', 'url'], additionalProperties: false, properties: { title: { type: 'string' }, url: { type: 'string' } } };

export const assistantSchemas = {
  AssistantConversationsResponse: {
    type: 'object',
    required: ['conversations', 'nextCursor', 'hasMore'],
    additionalProperties: false,
    properties: {
      conversations: {
        type: 'array',
        description: 'Turns (a question and its answer), oldest first.',
        items: {
          type: 'object',
          required: ['id', 'timestamp', 'query', 'response', 'sources', 'resolutionStatus', 'queryCategory', 'pageUrl'],
          additionalProperties: false,
          properties: {
            id: { type: 'string', description: 'The turn id (ULID).' },
            timestamp: { type: 'string', format: 'date-time' },
            query: { type: 'string' },
            response: { type: 'string', description: 'The answer as it streamed (cut where a limit or error ended it).' },
            responseType: { type: 'string', enum: ['answer', 'clarifying_question'], description: 'Always `answer`.' },
            sources: { type: 'array', items: source },
            resolutionStatus: { type: 'string', enum: ['answered', 'unanswered'] },
            queryCategory: { type: ['string', 'null'], description: 'Always null: no categorisation.' },
            pageUrl: { type: ['string', 'null'] },
          },
        },
      },
      nextCursor: { type: ['string', 'null'] },
      hasMore: { type: 'boolean' },
    },
  },
  AssistantThreadResponse: {
    type: 'object',
    required: ['threadId', 'createdAt', 'messages'],
    additionalProperties: false,
    properties: {
      threadId: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      messages: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'role', 'content', 'createdAt'],
          additionalProperties: false,
          properties: { id: { type: 'string' }, role: { type: 'string', enum: ['user', 'assistant'] }, content: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } },
        },
      },
    },
  },
  AssistantCallerStatsResponse: {
    type: 'object',
    required: ['web', 'api', 'other', 'total'],
    additionalProperties: false,
    properties: { web: { type: 'integer', minimum: 0 }, api: { type: 'integer', minimum: 0 }, other: { type: 'integer', minimum: 0 }, total: { type: 'integer', minimum: 0 } },
  },
};

export const assistantPaths = {
  '/v1/analytics/{projectId}/assistant': {
    get: {
      operationId: 'getAssistantConversations',
      summary: "Turns of the readers' assistant, oldest first",
      tags: ['analytics'],
      parameters: [
        projectId,
        ...dates,
        { name: 'limit', in: 'query', required: false, description: 'Turns per page.', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
        { name: 'cursor', in: 'query', required: false, description: 'nextCursor of the previous page (a turn id, ULID).', schema: { type: 'string' } },
      ],
      responses: {
        '200': json({ $ref: '#/components/schemas/AssistantConversationsResponse' }, 'One page of turns', rateLimitHeaders),
        '400': limited('Invalid parameter or cursor: one detail per problem.'),
        '404': limited('Unknown project, or one of another organization.'),
        ...errors,
      },
    },
  },
  '/v1/analytics/{projectId}/assistant/threads/{threadId}': {
    get: {
      operationId: 'getAssistantThread',
      summary: 'The transcript of one assistant thread',
      tags: ['analytics'],
      parameters: [projectId, { name: 'threadId', in: 'path', required: true, description: 'Thread id (ULID).', schema: { type: 'string' } }],
      responses: {
        '200': json({ $ref: '#/components/schemas/AssistantThreadResponse' }, 'The thread', rateLimitHeaders),
        '400': limited('The thread id is not a ULID.'),
        '404': limited('Unknown project or thread.'),
        ...errors,
      },
    },
  },
  '/v1/analytics/{projectId}/assistant/caller-stats': {
    get: {
      operationId: 'getAssistantCallerStats',
      summary: 'Assistant questions by caller: web (the site panel), api (the discovery API), other',
      tags: ['analytics'],
      parameters: [projectId, ...dates],
      responses: {
        '200': json({ $ref: '#/components/schemas/AssistantCallerStatsResponse' }, 'Counts in the range', rateLimitHeaders),
        '400': limited('Invalid parameter: one detail per problem.'),
        '404': limited('Unknown project, or one of another organization.'),
        ...errors,
      },
    },
  },
};
