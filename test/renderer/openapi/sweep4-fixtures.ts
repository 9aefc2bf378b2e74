/**
 * Small specs of our own for the fourth sweep over public specs (2026-11-27, third session;
 * docs/api-reference.md "Fourth sweep over public specs"): each reproduces a class of problem.
 */

/**
 * The same field in several places of one page: a choice's variants that share field names (`type`,
 * `id`), a request body and a response of the same schema, a parameter named as a body field,
 * and nested objects that repeat a name.
 */
export const REPEATS_30 = {
  openapi: '3.0.3',
  info: { title: 'Repeats', version: '1' },
  servers: [{ url: 'https://repeats.test' }],
  paths: {
    '/batches/{id}': {
      put: {
        summary: 'Replace a batch',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'type', in: 'query', schema: { type: 'string' } },
        ],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Batch' } } } },
        responses: {
          '200': { description: 'The batch', content: { 'application/json': { schema: { $ref: '#/components/schemas/Batch' } } } },
          '201': { description: 'Also the batch', content: { 'application/json': { schema: { $ref: '#/components/schemas/Batch' } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Batch: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          batch: {
            oneOf: [
              { title: 'Cards', type: 'object', properties: { type: { type: 'string', enum: ['cards'] }, items: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } },
              { title: 'Banks', type: 'object', properties: { type: { type: 'string', enum: ['banks'] }, items: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } },
            ],
          },
          meta: { anyOf: [{ type: 'object', properties: { id: { type: 'string' } } }, { type: 'object', properties: { id: { type: 'integer' }, note: { type: 'string' } } }] },
        },
      },
      Item: { type: 'object', properties: { id: { type: 'string' }, type: { type: 'string' } } },
    },
  },
};

/**
 * A document-wide `security` beside webhooks, as Resend's spec has it: the bearer token is how a
 * client calls the API; the API's webhooks come signed in their own way, written on the webhook.
 */
export const WEBHOOK_SECURITY_31 = {
  openapi: '3.1.0',
  info: { title: 'Mail', version: '1' },
  servers: [{ url: 'https://mail.test' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/emails': {
      post: {
        tags: ['Emails'],
        summary: 'Send an email',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { to: { type: 'string' } } } } } },
        responses: { '200': { description: 'OK' } },
      },
    },
  },
  webhooks: {
    'email.sent': {
      post: {
        tags: ['Webhook Events'],
        summary: 'Email sent',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { type: { type: 'string', const: 'email.sent' } } } } } },
        responses: { '2XX': { description: 'Return any 2xx status code to acknowledge receipt of the event.' } },
      },
    },
    'email.bounced': {
      post: {
        tags: ['Webhook Events'],
        summary: 'Email bounced',
        security: [{ signature: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { type: { type: 'string', const: 'email.bounced' } } } } } },
        responses: { '2XX': { description: 'OK' } },
      },
    },
  },
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer' },
      signature: { type: 'apiKey', in: 'header', name: 'svix-signature', description: 'The signature of the delivery, to verify before acting on it.' },
    },
  },
};
