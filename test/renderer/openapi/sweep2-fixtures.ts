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
    '/keys': {
      get: { summary: 'List keys', security: [{ Documented: ['keys:read'] }], responses: { '200': { description: 'ok' } } },
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
      Documented: { type: 'http', scheme: 'bearer', description: 'Your key from the [dashboard](https://auth.test/keys), sent as `Bearer <key>`.' },
    },
  },
};

/** Choice fields as drf-spectacular writes them (PostHog's and most Django REST Framework APIs). */
export const DRF_30 = {
  openapi: '3.0.3',
  info: { title: 'Django', version: '1' },
  servers: [{ url: 'https://drf.test' }],
  paths: {
    '/api/members/': {
      post: {
        operationId: 'members_create',
        summary: 'Add a member',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Member' } } } },
        responses: { '201': { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/Member' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Member: {
        type: 'object',
        required: ['email'],
        properties: {
          email: { type: 'string', format: 'email' },
          // `blank=True, null=True` choices: the field's enum, '' and null.
          role: { nullable: true, oneOf: [{ $ref: '#/components/schemas/RoleEnum' }, { $ref: '#/components/schemas/BlankEnum' }, { $ref: '#/components/schemas/NullEnum' }] },
          // `null=True` only.
          level: { oneOf: [{ $ref: '#/components/schemas/LevelEnum' }, { $ref: '#/components/schemas/NullEnum' }] },
        },
      },
      RoleEnum: { enum: ['engineering', 'founder'], type: 'string', description: '* `engineering` - Engineering\n* `founder` - Founder' },
      LevelEnum: { enum: [1, 2, 3], type: 'integer' },
      BlankEnum: { enum: [''] },
      NullEnum: { enum: [null] },
    },
  },
};

/** Shapes hand-written and generated specs share (a Mintlify docs repository's chat API, grpc-gateway). */
export const SHAPES_30 = {
  openapi: '3.0.3',
  info: { title: 'Shapes', version: '1' },
  servers: [{ url: 'https://shapes.test' }],
  paths: {
    '/v1/chat/completions': {
      post: {
        summary: 'Chat completion',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['messages'], properties: { messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } } } } } },
        },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Message: {
        type: 'object',
        required: ['role', 'content'],
        properties: {
          role: { type: 'string', enum: ['user', 'assistant'] },
          // Text, or a list of parts: no type of its own.
          content: { oneOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/components/schemas/Part' } }] },
          // Choices that are all objects stay `object`.
          source: { oneOf: [{ $ref: '#/components/schemas/Part' }, { type: 'object', properties: { url: { type: 'string' } } }] },
        },
      },
      Part: { type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['text', 'image_url'] }, text: { type: 'string' } } },
    },
  },
};

/** Servers as Apidog exports them: a blank "Cloud Mock" URL first, the real one after. */
export const BLANK_SERVER_30 = {
  openapi: '3.0.1',
  info: { title: '', version: '1' },
  servers: [
    { url: '', description: 'Cloud Mock' },
    { url: 'https://api.shop.test/admin/v2', description: 'Production' },
    { url: 'https://api.shop.test/admin/v2', description: 'Production (again)' },
    { url: '{base}', variables: { base: { default: '' } } },
  ],
  paths: { '/brands': { get: { summary: 'List brands', responses: { '200': { description: '' } } } } },
};

/** Swagger 2.0 as Go's swag writes it: a development host, no `schemes`. */
export const SWAG_20 = {
  swagger: '2.0',
  info: { title: 'Covid Data Api', version: '1.0', contact: {} },
  host: 'localhost:8080',
  basePath: '/',
  paths: {
    '/GetStateData': {
      get: {
        summary: 'Get data by state',
        produces: ['application/json'],
        parameters: [{ in: 'query', name: 'state', required: true, type: 'string', description: 'Enter State' }],
        responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/model.OneState' } } },
      },
    },
  },
  definitions: { 'model.OneState': { type: 'object', properties: { state_code: { type: 'string', example: 'HR' } } } },
};

/** Swagger 2.0 as grpc-gateway (protoc-gen-openapiv2) writes it: HTTP and WebSocket schemes listed together. */
export const GATEWAY_20 = {
  swagger: '2.0',
  info: { title: 'Lightning', version: '1.0' },
  host: 'node.test:8881',
  schemes: ['wss', 'http', 'https'],
  consumes: ['application/json'],
  produces: ['application/json'],
  paths: {
    '/v1/lightning/checkinvoice': {
      post: {
        operationId: 'Lightning_CheckInvoice',
        summary: 'Check an invoice',
        // Proto comments written `/** … */` leave their first `*`.
        description: '*\nChecks whether an invoice is paid.',
        parameters: [{ name: 'body', in: 'body', required: true, schema: { type: 'object', description: '*\nRepresents a request to check an invoice.', properties: { invoice: { type: 'string', description: '*\n The invoice, BOLT 11 encoded.' } } } }],
        responses: { '200': { description: 'A successful response.', schema: { type: 'object', properties: { paid: { type: 'boolean' } } } } },
      },
    },
  },
};

/** JSON examples written by hand as strings, as Apidog exports keep them: a trailing comma, JavaScript notation. */
export const STRING_EXAMPLES_30 = {
  openapi: '3.0.1',
  info: { title: 'Brands', version: '1' },
  servers: [{ url: 'https://brands.test' }],
  paths: {
    '/brands/{brand}': {
      put: {
        summary: 'Update brand',
        parameters: [{ name: 'brand', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { name: { type: 'string' }, translations: { type: 'object' } } },
              example: '{\n    "name": "ابل",\n    "translations": {\n        "en": {\n            "name": "Apple",\n            "url": "a,]",\n        }\n    },\n}',
            },
          },
        },
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' }, example: "{ success: true, data: { id: 1 } }" } } },
        },
      },
    },
  },
};

/** Mintlify's `x-default`: on security schemes (always) and schema properties (with `api.examples.prefill`). */
export const X_DEFAULT_31 = {
  openapi: '3.1.0',
  info: { title: 'Prefill', version: '1' },
  servers: [{ url: 'https://prefill.test' }],
  security: [{ apiKey: [] }, { bearer: [] }],
  paths: {
    '/reports': {
      post: {
        summary: 'Create a report',
        parameters: [{ name: 'region', in: 'query', schema: { type: 'string', example: 'us', 'x-default': 'eu' } }],
        requestBody: {
          content: { 'application/json': { schema: { type: 'object', properties: { title: { type: 'string', example: 'Q1', 'x-default': 'My first report' }, pages: { type: 'integer', default: 1 } } } } },
        },
        responses: { '201': { description: 'Created' } },
      },
    },
  },
  components: {
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', 'x-default': 'your-api-key-here' },
      bearer: { type: 'http', scheme: 'bearer', 'x-default': 'test-token' },
    },
  },
};

/** Spring Data's `Pageable` as springdoc writes it: an exploded form object with a list property. */
export const PAGEABLE_30 = {
  openapi: '3.0.1',
  info: { title: 'OpenAPI definition', version: 'v0' },
  servers: [{ url: 'http://localhost:8080', description: 'Generated server url' }],
  paths: {
    '/api/users': {
      get: {
        tags: ['user-controller'],
        operationId: 'getUsers',
        parameters: [{ name: 'pageable', in: 'query', required: true, schema: { $ref: '#/components/schemas/Pageable' } }],
        responses: { '200': { description: 'OK', content: { '*/*': { schema: { type: 'object' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Pageable: {
        type: 'object',
        properties: { page: { minimum: 0, type: 'integer', format: 'int32' }, size: { minimum: 1, type: 'integer', format: 'int32' }, sort: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
};

/** Bodies as ASP.NET's Swashbuckle writes them: JSON Patch's media type first, a wildcard last. */
export const SWASHBUCKLE_30 = {
  openapi: '3.0.1',
  info: { title: 'WebApi', version: 'v1' },
  servers: [{ url: 'https://dotnet.test' }],
  paths: {
    '/api/Todo': {
      post: {
        tags: ['Todo'],
        requestBody: {
          content: Object.fromEntries(['application/json-patch+json', 'application/json', 'text/json', 'application/*+json'].map((t) => [t, { schema: { $ref: '#/components/schemas/TodoItem' } }])),
        },
        responses: {
          '200': { description: 'Success', content: Object.fromEntries(['text/plain', 'application/json', 'text/json'].map((t) => [t, { schema: { $ref: '#/components/schemas/TodoItem' } }])) },
        },
      },
    },
  },
  components: { schemas: { TodoItem: { type: 'object', properties: { name: { type: 'string', nullable: true }, isComplete: { type: 'boolean' } }, additionalProperties: false } } },
};

/** List filters as FastAPI writes `Optional[Union[UUID, list[UUID]]]` (polar-docs' `product_id`). */
export const FILTERS_31 = {
  openapi: '3.1.0',
  info: { title: 'Filters', version: '1' },
  servers: [{ url: 'https://filters.test' }],
  paths: {
    '/orders': {
      get: {
        summary: 'List orders',
        parameters: [
          {
            name: 'product_id',
            in: 'query',
            description: 'Filter by product ID.',
            schema: { anyOf: [{ type: 'string', format: 'uuid', description: 'The product ID.' }, { type: 'array', items: { type: 'string', format: 'uuid' } }, { type: 'null' }] },
          },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};
