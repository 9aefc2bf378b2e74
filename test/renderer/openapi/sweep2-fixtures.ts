/**
 * Small specs of our own for the second sweep over public specs (2026-11-27, second session;
 * docs/api-reference.md): each reproduces a class of problem that generated specs (FastAPI with
 * Stainless, drf-spectacular, NestJS, springdoc, Go swag, grpc-gateway, Apidog exports) showed.
 */

/** Credentials that may be left out: `security: [{scheme: []}, {}]` (Honcho's, Stainless-written specs). */
export const OPTIONAL_AUTH_31 = {
  openapi: '3.1.0',
  info: { title: 'Optional auth', version: '1' },
  servers: [{ url: 'https://auth.test' }],
  security: [{ HTTPBearer: [] }, {}],
  paths: {
    '/collections/{name}': {
      get: {
        summary: 'Get a collection',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The collection' } },
      },
    },
    '/public/stats': {
      // No credentials first: examples still show how to send the key.
      get: { summary: 'Read stats', security: [{}, { ApiKey: [] }], responses: { '200': { description: 'ok' } } },
    },
    '/admin': {
      get: { summary: 'Administer', security: [{ HTTPBearer: [] }], responses: { '200': { description: 'ok' } } },
    },
    '/health': {
      // Only the empty alternative: no credentials at all.
      get: { summary: 'Health', security: [{}], responses: { '200': { description: 'ok' } } },
    },
  },
  components: {
    securitySchemes: {
      HTTPBearer: { type: 'http', scheme: 'bearer' },
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    },
  },
};
