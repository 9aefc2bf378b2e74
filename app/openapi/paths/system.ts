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
      summary: 'Readiness: database open, shutdown not begun; site state reported',
      tags: ['operations'],
      security: [],
      responses: {
        '200': json({ $ref: '#/components/schemas/Readiness' }, 'Ready'),
        '503': json({ $ref: '#/components/schemas/Readiness' }, 'Not ready (shutting down, or a critical check fails)'),
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
      status: { enum: ['ready', 'not ready'] },
      reason: { type: 'string' },
      checks: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          required: ['ok', 'critical'],
          properties: { ok: { type: 'boolean' }, critical: { type: 'boolean' }, detail: { type: 'string' } },
        },
      },
    },
  },
};
