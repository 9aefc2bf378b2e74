/** Shared schemas, responses and headers of the admin API description (OpenAPI 3.1). */
export const components = {
  securitySchemes: {
    adminKey: {
      type: 'http',
      scheme: 'bearer',
      description: 'Admin API key: `mint_` followed by at least 32 base62 characters.',
    },
    assistantKey: {
      type: 'http',
      scheme: 'bearer',
      description: 'Assistant API key (`mint_dsc_…`, one project; `docs-appliance keys create --type assistant`): the /discovery operations only.',
    },
  },
  headers: {
    'X-Request-Id': { description: 'Correlates this response with the appliance log.', schema: { type: 'string' } },
    'WWW-Authenticate': { description: 'Bearer challenge.', schema: { type: 'string' } },
    'Retry-After': { description: 'Seconds until a request will be accepted again.', schema: { type: 'string' } },
    'RateLimit-Limit': { description: 'Requests allowed in the window.', schema: { type: 'string' } },
    'RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'string' } },
    'RateLimit-Reset': { description: 'Seconds until the window frees a request.', schema: { type: 'string' } },
  },
  schemas: {
    Error: {
      type: 'object',
      required: ['error'],
      additionalProperties: false,
      properties: { error: { type: 'string' } },
    },
    AnalyticsError: {
      type: 'object',
      required: ['error', 'details'],
      additionalProperties: false,
      properties: {
        error: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', required: ['message'], additionalProperties: false, properties: { message: { type: 'string' } } },
        },
      },
    },
  },
  responses: {
    BadRequest: errorResponse('Malformed JSON, or an invalid field or parameter.'),
    Unauthorized: {
      ...errorResponse('Missing, malformed, unknown, revoked or expired admin key.'),
      headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' }, 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    },
    Forbidden: errorResponse('The key lacks the scope the method needs, or the plan lacks the feature.'),
    NotFound: errorResponse('Unknown project or job, or one of another organization.'),
    Conflict: errorResponse('The resource is not in a state that allows the operation.'),
    PayloadTooLarge: errorResponse('The body exceeds the configured limit.'),
    UnsupportedMediaType: errorResponse('The body is not application/json.'),
    TooManyRequests: {
      ...errorResponse('Rate limit exceeded, or (on operations that queue work) too many jobs already waiting; retry after Retry-After seconds.'),
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    },
    QueueFull: {
      ...errorResponse('Too many jobs already waiting (for the organization or for the whole appliance); nothing was created. Retry after Retry-After seconds.'),
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    },
    InternalError: errorResponse('Unexpected fault; the detail is in the log under the request id.'),
    StorageUnavailable: {
      ...errorResponse('Storage fault (STORAGE_FULL, STORAGE_READ_ONLY, STORAGE_BUSY): nothing was saved; retry after Retry-After seconds.'),
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    },
    AnalyticsUnauthorized: analyticsErrorResponse('Missing, malformed, unknown, revoked or expired admin key.'),
    AnalyticsForbidden: analyticsErrorResponse('The key lacks the read scope.'),
    AnalyticsInternalError: analyticsErrorResponse('Unexpected fault.'),
    AnalyticsStorageUnavailable: {
      ...analyticsErrorResponse('Storage fault (full disk, read-only state directory, database busy); retry after Retry-After seconds.'),
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    },
  },
} as const;

function errorResponse(description: string) {
  return {
    description,
    headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

function analyticsErrorResponse(description: string) {
  return {
    description,
    headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/AnalyticsError' } } },
  };
}

/** The error responses every authenticated operation can give. */
export const authErrors = {
  '401': { $ref: '#/components/responses/Unauthorized' },
  '403': { $ref: '#/components/responses/Forbidden' },
  '500': { $ref: '#/components/responses/InternalError' },
  '503': { $ref: '#/components/responses/StorageUnavailable' },
} as const;

/** ...and those of every operation that takes a JSON body. */
export const bodyErrors = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '413': { $ref: '#/components/responses/PayloadTooLarge' },
  '415': { $ref: '#/components/responses/UnsupportedMediaType' },
} as const;

export const json = (schema: unknown, description: string, headers?: Record<string, unknown>) => ({
  description,
  headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ...(headers ?? {}) },
  content: { 'application/json': { schema } },
});
