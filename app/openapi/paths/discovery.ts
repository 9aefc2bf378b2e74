/* The discovery (assistant) API on the admin listener, with assistant keys (issue 21; docs/assistant.md). */

const err = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ...headers },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/DiscoveryError' } } },
});
const limitHeaders = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};
const domain = {
  name: 'domain',
  in: 'path',
  required: true,
  description: "The project's domain (`docs.acme.internal`) or its first label (`docs`).",
  schema: { type: 'string' },
};
const errors = {
  '400': err('Invalid body.'),
  '401': err('Missing, unknown, revoked or expired assistant key.', { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } }),
  '404': err("Not the key's project's domain, or this appliance does not serve the project's documentation."),
  '413': err('Body larger than admin.maxBodyBytes.'),
  '415': err('Content-Type is not application/json.'),
  '429': err('More than assistant.perKeyPerMinute requests with this key.', { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
};
const messageBody = {
  type: 'object',
  required: ['fp', 'messages'],
  properties: {
    fp: { type: 'string', description: 'Caller fingerprint (`anonymous` or a user id): checked, never stored.' },
    threadId: { type: ['string', 'null'], description: 'Continue this thread (from `X-Thread-Id` or the finish part).' },
    messages: { type: 'array', maxItems: 100, items: { type: 'object', description: 'AI SDK message: `role` and `parts` (v5) or `content` (v4). `system` and `data` messages are ignored.' } },
    retrievalPageSize: { type: 'number', minimum: 1, description: 'Passages retrieved (capped at 20).' },
    filter: { type: 'object', properties: { language: { type: 'string' }, version: { type: 'string' } } },
    currentPath: { type: 'string', maxLength: 200 },
    context: { type: 'array', items: { type: 'object' }, description: 'Accepted and ignored.' },
  },
};
const streamed = (type: string, description: string) => ({
  description,
  headers: { 'X-Thread-Id': { description: 'The thread of this answer.', schema: { type: 'string' } }, ...limitHeaders },
  content: { [type]: { schema: { type: 'string' } } },
});
// Retry-After only when waiting helps (busy, no site yet); not when the assistant is off.
const busy = { '503': err('The assistant is off (no model configured), busy (assistant.maxConcurrent; with Retry-After) or no site is served yet (with Retry-After).') };

export const discoverySchemas = {
  DiscoveryError: {
    type: 'object',
    required: ['error', 'message'],
    additionalProperties: false,
    properties: { error: { type: 'string' }, message: { type: 'string', description: 'The same text, under the name the discovery document uses.' } },
  },
};

const security = [{ assistantKey: [] }];

export const discoveryPaths = {
  '/discovery/v1/search/{domain}': {
    post: {
      operationId: 'searchDocumentation',
      summary: 'Search the served documentation by section',
      tags: ['discovery'],
      security,
      parameters: [domain],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['query'],
              properties: {
                query: { type: 'string', maxLength: 1000 },
                pageSize: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
                scoreThreshold: { type: 'number', minimum: 0, maximum: 1, description: 'Against the relative score (the best result scores 1).' },
                filter: { type: 'object', properties: { language: { type: 'string' }, version: { type: 'string' }, tag: { type: 'string' }, groups: { type: 'array', items: { type: 'string' } } } },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'Sections, best first.',
          headers: limitHeaders,
          content: {
            'application/json': {
              schema: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['content', 'path', 'metadata'],
                  properties: { content: { type: 'string' }, path: { type: 'string' }, metadata: { type: 'object', description: 'title, heading, url, score, language, version' } },
                },
              },
            },
          },
        },
        ...errors,
      },
    },
  },
  '/discovery/v1/page/{domain}': {
    post: {
      operationId: 'getPageContent',
      summary: 'The Markdown of one page',
      tags: ['discovery'],
      security,
      parameters: [domain],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['path'], properties: { path: { type: 'string', maxLength: 500 }, groups: { type: 'array', items: { type: 'string' } } } } } } },
      responses: {
        '200': { description: 'The page.', headers: limitHeaders, content: { 'application/json': { schema: { type: 'object', required: ['path', 'content'], properties: { path: { type: 'string' }, content: { type: 'string' } } } } } },
        ...errors,
      },
    },
  },
  '/discovery/v1/assistant/{domain}/message': {
    post: {
      operationId: 'createAssistantMessage',
      summary: 'Answer a question from the docs (AI SDK v4 data stream)',
      tags: ['discovery'],
      security,
      parameters: [domain],
      requestBody: { required: true, content: { 'application/json': { schema: messageBody } } },
      responses: { '200': streamed('text/plain', 'AI SDK v4 data stream; the `d:` part carries threadId.'), ...errors, ...busy },
    },
  },
  '/discovery/v2/assistant/{domain}/message': {
    post: {
      operationId: 'createAssistantMessageV2',
      summary: 'Answer a question from the docs (AI SDK v5 UI message stream)',
      tags: ['discovery'],
      security,
      parameters: [domain],
      requestBody: { required: true, content: { 'application/json': { schema: messageBody } } },
      responses: { '200': streamed('text/event-stream', 'AI SDK v5 UI message stream; start and finish carry messageMetadata.threadId.'), ...errors, ...busy },
    },
  },
};
