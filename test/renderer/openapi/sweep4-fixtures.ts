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

/**
 * A spec split as DigitalOcean's is: the operation a `$ref` to its own file, and each of its
 * `x-codeSamples` a `$ref` to a sample file beside it (paths relative to the operation's file);
 * the path item's own parameters stay relative to the document they are written in.
 */
export const SPLIT_SAMPLES_30: Record<string, unknown> = {
  'do/openapi.json': {
    openapi: '3.0.0',
    info: { title: 'Droplets', version: '2' },
    servers: [{ url: 'https://api.droplets.test' }],
    paths: { '/v2/droplets/{droplet_id}': { parameters: [{ $ref: '#/components/parameters/trace' }], get: { $ref: 'resources/droplets/droplets_get.json' } } },
    components: { parameters: { trace: { name: 'X-Trace', in: 'header', schema: { type: 'string' }, description: 'A trace id.' } } },
  },
  'do/resources/droplets/droplets_get.json': {
    operationId: 'droplets_get',
    summary: 'Retrieve an Existing Droplet',
    tags: ['Droplets'],
    parameters: [{ $ref: 'parameters.json#/droplet_id' }],
    responses: { '200': { description: 'OK' } },
    'x-codeSamples': [{ $ref: 'examples/curl/get_droplet.json' }, { $ref: 'examples/go/get_droplet.json' }, { lang: 'Ruby', source: 'client.droplets.find(id: 3164494)' }],
  },
  'do/resources/droplets/parameters.json': { droplet_id: { name: 'droplet_id', in: 'path', required: true, schema: { type: 'integer' } } },
  'do/resources/droplets/examples/curl/get_droplet.json': { lang: 'cURL', source: 'curl -X GET "https://api.droplets.test/v2/droplets/3164494"' },
  'do/resources/droplets/examples/go/get_droplet.json': { lang: 'Go', source: 'droplet, _, err := client.Droplets.Get(ctx, 3164494)' },
};
