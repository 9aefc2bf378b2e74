import { json } from '../components.js';

export const systemPaths = {
  '/healthz': {
    get: {
      operationId: 'getLiveness',
      summary: 'Liveness: the process answers',
      tags: ['operations'],
      security: [],
      responses: { '200': json({ type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }, 'Alive') },
    },
  },
  '/readyz': {
    get: {
      operationId: 'getReadiness',
      summary: 'Readiness: database open, shutdown not begun, and a configured site served',
      tags: ['operations'],
      security: [],
      responses: {
        '200': json({ $ref: '#/components/schemas/Readiness' }, 'Ready'),
        '503': json({ $ref: '#/components/schemas/Readiness' }, 'Not ready (shutting down, or a critical check fails: the database, or no configured site served)'),
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'getMetrics',
      summary: 'Prometheus metrics',
      tags: ['operations'],
      security: [],
      responses: { '200': { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } } },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tags: ['operations'],
      security: [],
      responses: { '200': json({ type: 'object' }, 'OpenAPI 3.1 description of the admin API') },
    },
  },
};

export const systemSchemas = {
  Readiness: {
    type: 'object',
    required: ['status', 'checks'],
    properties: {
      status: { enum: ['ready', 'degraded', 'not ready'], description: '`degraded`: 200, but a check that does not stop readiness fails (one of several configured sites is not served, say)' },
      reason: { type: 'string' },
      checks: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          required: ['ok', 'critical'],
          properties: {
            ok: { type: 'boolean' },
            critical: { type: 'boolean' },
            detail: { type: 'string' },
            sites: {
              description: 'The site check: each site the appliance is configured to serve, and whether it is',
              type: 'array',
              items: {
                type: 'object',
                required: ['site', 'served'],
                properties: { site: { type: 'string' }, served: { type: 'boolean' }, detail: { type: 'string' }, refused: { type: 'boolean' } },
              },
            },
          },
        },
      },
    },
  },
};
