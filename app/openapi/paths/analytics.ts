import { json } from '../components.js';

export const rateLimitHeaders = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

/** An analytics error response that also carries the organization's rate-limit headers. */
export const limited = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ...rateLimitHeaders, ...extra },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/AnalyticsError' } } },
});

export const dateParam = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', examples: ['2026-11-01', '2026-11-01T10:00:00+02:00'] },
});

export const analyticsSchemas = {
  SearchAggregate: {
    type: 'object',
    required: ['searchQuery', 'hits', 'ctr', 'topClickedPage', 'lastSearchedAt'],
    additionalProperties: false,
    properties: {
      searchQuery: { type: 'string', description: 'The normalised term (NFC, trimmed, inner whitespace collapsed, lower-cased).' },
      hits: { type: 'integer', minimum: 1, description: 'Searches for the term in the range.' },
      ctr: { type: 'number', minimum: 0, maximum: 100, description: 'Percentage (0–100, two decimals) of those searches followed by a click on a result.' },
      topClickedPage: { type: ['string', 'null'], description: 'The page path clicked most for the term in the range (ties: path ascending); null without clicks.' },
      lastSearchedAt: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' },
    },
  },
  SearchAnalyticsResponse: {
    type: 'object',
    required: ['searches', 'totalSearches', 'nextCursor'],
    additionalProperties: false,
    properties: {
      searches: { type: 'array', items: { $ref: '#/components/schemas/SearchAggregate' }, description: 'Ordered by hits descending, then searchQuery ascending.' },
      totalSearches: { type: 'integer', minimum: 0, description: 'Sum of hits over the whole range (every page), not the number of terms.' },
      nextCursor: { type: ['string', 'null'], description: 'Opaque signed cursor for the next page; null on the last page.' },
    },
  },
};

export const analyticsPaths = {
  '/v1/analytics/{projectId}/searches': {
    get: {
      operationId: 'getSearchAnalytics',
      summary: 'Search terms of the served site, with hits, click-through rate and top clicked page',
      description:
        'Rate limit: the organization shares `analytics.rateLimitPerHour` (default 100) requests per rolling hour across every /v1/analytics route; every response carries RateLimit-* headers and a 429 also Retry-After. A cursor pins the data as of the first page: pages never skip or repeat a term while events arrive, and their hits add up to totalSearches. Parameters left out next to a cursor are taken from it; parameters given must equal the ones it was issued for.',
      tags: ['analytics'],
      parameters: [
        { name: 'projectId', in: 'path', required: true, description: 'The project id (24 hex characters).', schema: { type: 'string' } },
        dateParam('dateFrom', 'Inclusive lower bound: ISO 8601 date-time (offset honoured; none = UTC) or YYYY-MM-DD (midnight UTC). Omitted: unbounded.'),
        dateParam('dateTo', 'Exclusive upper bound, same forms as dateFrom; must be after it. Omitted: unbounded.'),
        { name: 'limit', in: 'query', required: false, description: 'Terms per page.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
        { name: 'cursor', in: 'query', required: false, description: 'nextCursor of the previous page.', schema: { type: 'string' } },
      ],
      responses: {
        '200': json({ $ref: '#/components/schemas/SearchAnalyticsResponse' }, 'One page of search terms', rateLimitHeaders),
        '400': limited('Invalid parameter or cursor (forged, garbled, expired, another project or other parameters): one detail per problem.'),
        '401': { $ref: '#/components/responses/AnalyticsUnauthorized' },
        '403': { $ref: '#/components/responses/AnalyticsForbidden' },
        '404': limited('Unknown project, or one of another organization.'),
        '429': limited('More than the hourly limit of the organization.', { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
        '500': { $ref: '#/components/responses/AnalyticsInternalError' },
        '503': { $ref: '#/components/responses/AnalyticsStorageUnavailable' },
      },
    },
  },
};
