import { json } from '../components.js';

export const systemPaths = {
  '/': {
    get: {
      operationId: 'getAdminIndex',
      summary: 'Where to go: a browser is sent to the console, any other client gets the paths of the console and this document',
      tags: ['operations'],
      security: [],
      responses: {
        '200': json(
          {
            type: 'object',
            required: ['service', 'openapi'],
            properties: {
              service: { const: 'docs-appliance admin API' },
              openapi: { const: '/openapi.json', description: 'This API described (OpenAPI 3.1)' },
              console: { const: '/console', description: 'The admin console, for a browser; absent when console.enabled is false' },
            },
          },
          'Not a browser (no text/html preferred over JSON), or the console is off',
        ),
        '302': {
          description: 'A browser (Accept prefers text/html) with the console on: sent to the console',
          headers: { Location: { description: 'The console: /console', schema: { type: 'string' } } },
        },
      },
    },
  },
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
