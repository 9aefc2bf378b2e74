/**
 * Small specs of our own for the third sweep over public specs (2026-11-27, third session;
 * docs/api-reference.md): each reproduces a class of problem that public specs (Fern's, Discord's,
 * utoipa's, Kubernetes', Stainless-written OpenAI's, Stripe's, Trigger.dev's) showed.
 */

/** Unions and optional references as Fern writes them (Langfuse's spec), and as Rust's utoipa writes serde enums. */
export const UNIONS_30 = {
  openapi: '3.0.1',
  info: { title: 'Unions', version: '' },
  servers: [{ url: 'https://unions.test' }],
  paths: {
    '/events': {
      post: {
        summary: 'Ingest events',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', properties: { batch: { type: 'array', items: { $ref: '#/components/schemas/Event' } } } } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/payments': {
      post: {
        summary: 'Create a payment',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['amount'],
                properties: { amount: { type: 'integer', example: 100 }, email: { type: 'string' }, phone: { type: 'string' } },
                // Choices beside fields of the object's own, and "at least one of" as required-only choices.
                oneOf: [
                  { title: 'Card', properties: { card: { type: 'string', example: 'tok_1' } }, required: ['card'] },
                  { title: 'Bank', properties: { iban: { type: 'string' } }, required: ['iban'] },
                ],
                anyOf: [{ required: ['email'] }, { required: ['phone'] }],
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/contacts': {
      post: {
        summary: 'Create a contact',
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { email: { type: 'string' }, phone: { type: 'string' }, name: { type: 'string' } }, anyOf: [{ required: ['email'] }, { required: ['phone'] }] },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/items/{id}': {
      get: {
        summary: 'Get an item',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          // Fern: `nullable` beside a `$ref`.
          { name: 'status', in: 'query', schema: { $ref: '#/components/schemas/Status', nullable: true } },
        ],
        responses: { '200': { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Status: { type: 'string', enum: ['PENDING', 'DONE'] },
      Comment: { type: 'object', properties: { text: { type: 'string' } } },
      Item: {
        type: 'object',
        properties: {
          comment: { $ref: '#/components/schemas/Comment', nullable: true, description: 'Left when the item was done' },
          // utoipa: a serde enum tagged inside (`#[serde(tag = "type")]`).
          kind: {
            oneOf: [
              { type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['Simple'] } } },
              { type: 'object', required: ['type', 'minutes'], properties: { type: { type: 'string', enum: ['Timed'] }, minutes: { type: 'integer' } } },
            ],
          },
          // utoipa: a serde enum tagged outside (the default): one property named after each variant.
          error: {
            oneOf: [
              { type: 'object', required: ['Conflict'], properties: { Conflict: { type: 'string' } } },
              { type: 'object', required: ['NotFound'], properties: { NotFound: { type: 'string' } } },
            ],
          },
          // Nothing tells these apart.
          details: {
            oneOf: [
              { type: 'object', additionalProperties: { type: 'string' } },
              { type: 'object', properties: { errors: { type: 'array', items: { type: 'string' } } } },
            ],
          },
        },
      },
      BaseEvent: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      TraceEvent: { type: 'object', properties: { name: { type: 'string' } }, allOf: [{ $ref: '#/components/schemas/BaseEvent' }] },
      ScoreEvent: { type: 'object', properties: { value: { type: 'number' } }, allOf: [{ $ref: '#/components/schemas/BaseEvent' }] },
      Event: {
        title: 'Event',
        oneOf: [
          { type: 'object', allOf: [{ type: 'object', properties: { type: { type: 'string', enum: ['trace-create'] } } }, { $ref: '#/components/schemas/TraceEvent' }], required: ['type'] },
          { type: 'object', allOf: [{ type: 'object', properties: { type: { type: 'string', enum: ['score-create'] } } }, { $ref: '#/components/schemas/ScoreEvent' }], required: ['type'] },
        ],
      },
    },
  },
};

/** Values and bounds as Discord's, OpenAI's and Kubernetes' specs write them. */
export const VALUES_31 = {
  openapi: '3.1.0',
  info: { title: 'Values', version: '1' },
  servers: [{ url: 'https://values.test' }],
  paths: {
    '/stages': {
      post: {
        summary: 'Create a stage',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  privacy_level: { oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/PrivacyLevel' }] },
                  nonce: { type: 'integer', format: 'int64', minimum: -9223372036854775808, maximum: 9223372036854775807 },
                  model: { anyOf: [{ type: 'string' }, { type: 'string', enum: ['gpt-4o', 'o3-mini'] }], description: 'The model to use.' },
                  stop: { type: 'string', example: '\n' },
                  // GitHub: `nullable` on each choice.
                  value: { oneOf: [{ type: 'string', nullable: true }, { type: 'array', items: { type: 'string' }, nullable: true }] },
                  // Alike by type alone (polar-docs' metadata filters and trial_end).
                  filter: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'integer' } }] },
                  trial_end: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'string', const: 'now' }, { type: 'null' }] },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/orders': {
      post: {
        summary: 'Place an order',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['country'],
                properties: { country: { type: 'string', enum: ['US', 'CA'] }, postal_code: { type: 'string' }, state: { type: 'string' } },
                if: { properties: { country: { const: 'US' } } },
                then: { required: ['state'], properties: { postal_code: { pattern: '^[0-9]{5}$' } } },
                else: { properties: { postal_code: { pattern: '^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$' }, province: { type: 'string', enum: ['ON', 'QC'] } } },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/prices': {
      get: {
        summary: 'List prices',
        responses: {
          '200': {
            description: 'ok',
            // TypeBox's Record<string, T> (Elysia), and a pattern that does say something.
            content: { 'application/json': { schema: { type: 'object', patternProperties: { '^(.*)$': { type: 'number' }, '^x-': { type: 'string' } } } } },
          },
        },
      },
    },
    '/namespaces/{namespace}/maps': {
      get: {
        summary: 'List maps',
        // Kubernetes writes `uniqueItems: true` on every parameter.
        parameters: [
          { name: 'namespace', in: 'path', required: true, schema: { type: 'string', uniqueItems: true } },
          { name: 'names', in: 'query', schema: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      PrivacyLevel: {
        type: 'integer',
        oneOf: [
          { title: 'PUBLIC', description: 'Visible to everyone.', const: 1 },
          { title: 'GUILD_ONLY', description: 'Visible to members only.', const: 2 },
        ],
        format: 'int32',
      },
    },
  },
};

/** Descriptions and recursion as Stripe's and Trigger.dev's specs write them. */
export const PROSE_30 = {
  openapi: '3.0.0',
  info: { title: 'Prose', version: '1' },
  servers: [{ url: 'https://prose.test' }],
  paths: {
    '/v1/customers': {
      post: { summary: 'Create a customer', description: '<p>Creates a new <code>customer</code> object.</p>', responses: { '200': { description: 'ok' } } },
    },
    '/v1/runs/{id}/trace': {
      get: {
        summary: 'Retrieve run trace',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { rootSpan: { allOf: [{ $ref: '#/components/schemas/Span' }], description: 'The run\'s span.' } },
                },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Span: { type: 'object', properties: { id: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Span' } } } },
    },
  },
};

/** Kafka messages whose payload is an Avro schema: AsyncAPI 3's `{schemaFormat, schema}`. */
export const AVRO_ASYNC_3 = {
  asyncapi: '3.0.0',
  info: { title: 'Signups', version: '1.0.0' },
  servers: { kafka: { host: 'kafka.test:9092', protocol: 'kafka' } },
  channels: {
    userSignedUp: {
      address: 'user_signedup',
      messages: {
        signedUp: {
          name: 'signedUp',
          title: 'User signed up',
          payload: {
            schemaFormat: 'application/vnd.apache.avro;version=1.9.0',
            schema: {
              type: 'record',
              name: 'UserSignedUp',
              namespace: 'com.example',
              doc: 'Who signed up',
              fields: [
                { name: 'userId', type: 'long', doc: 'Id of the user' },
                { name: 'plan', type: { type: 'enum', name: 'Plan', symbols: ['FREE', 'PRO'] } },
                { name: 'nickname', type: ['null', 'string'], default: null },
                { name: 'signedUpAt', type: { type: 'long', logicalType: 'timestamp-millis' } },
                { name: 'referrer', type: ['null', 'UserSignedUp'], default: null },
              ],
            },
          },
        },
      },
    },
  },
  operations: { onSignup: { action: 'receive', channel: { $ref: '#/channels/userSignedUp' } } },
};

/** The same in AsyncAPI 2, where `schemaFormat` sits on the message. */
export const AVRO_ASYNC_2 = {
  asyncapi: '2.6.0',
  info: { title: 'Orders', version: '1.0.0' },
  channels: {
    orders: {
      subscribe: {
        message: {
          name: 'order',
          schemaFormat: 'application/vnd.apache.avro+json;version=1.9.0',
          payload: { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'string' }, { name: 'lines', type: { type: 'array', items: { type: 'map', values: 'int' } } }] },
        },
      },
    },
  },
};

/** A form body as Stripe's spec writes it: object and list fields declared `deepObject` in `encoding`. */
export const FORMS_30 = {
  openapi: '3.0.0',
  info: { title: 'Forms', version: '1' },
  servers: [{ url: 'https://forms.test' }],
  paths: {
    '/v1/customers': {
      post: {
        summary: 'Create a customer',
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              encoding: { metadata: { style: 'deepObject', explode: true }, expand: { style: 'deepObject', explode: true }, address: { style: 'deepObject', explode: true } },
              schema: {
                type: 'object',
                properties: {
                  email: { type: 'string', example: 'jo@forms.test' },
                  metadata: { type: 'object', additionalProperties: { type: 'string' }, example: { order_id: '6735' } },
                  expand: { type: 'array', items: { type: 'string' }, example: ['customer'] },
                  address: { type: 'object', properties: { city: { type: 'string', example: 'Paris' }, geo: { type: 'object', properties: { lat: { type: 'number', example: 48.8 } } } } },
                  // No encoding: a list is one pair per item, an object its JSON, as before.
                  tags: { type: 'array', items: { type: 'string' }, example: ['a', 'b'] },
                  extra: { type: 'object', properties: { note: { type: 'string', example: 'hi' } } },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

/** A JSON body with fields named `body` (GitHub's issues, e-mail APIs), at the top and nested. */
export const BODY_FIELD_31 = {
  openapi: '3.1.0',
  info: { title: 'Issues', version: '1' },
  servers: [{ url: 'https://issues.test' }],
  paths: {
    '/repos/{repo}/issues': {
      post: {
        summary: 'Create an issue',
        parameters: [{ name: 'repo', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  title: { type: 'string', example: 'Crash' },
                  body: { type: 'string', example: 'It crashes on start.' },
                  message: { type: 'object', properties: { body: { type: 'object', properties: { html: { type: 'string', example: '<p>Hi</p>' } } } } },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'created' } },
      },
    },
  },
};
