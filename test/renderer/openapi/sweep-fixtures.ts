/**
 * Small specs of our own, each reproducing a class of problem met on public specs (the sweep of
 * 2026-11-27, docs/api-reference.md): Swagger 2.0 forms, uploads and auth; relative servers;
 * parameter styles; file uploads; mutual TLS; OpenAPI 3.2; callbacks.
 */

/** Swagger 2.0 as public 2.0 specs write it (Redoc's and Swagger's petstores, older SaaS APIs). */
export const SWAGGER_FORMS = {
  swagger: '2.0',
  info: { title: 'Forms', version: '1' },
  host: 'forms.test',
  basePath: '/v2',
  consumes: ['application/json'],
  produces: ['application/json'],
  securityDefinitions: {
    basicAuth: { type: 'basic' },
    machine: { type: 'oauth2', flow: 'application', tokenUrl: 'https://forms.test/token', scopes: { 'pets:write': 'Write pets' } },
  },
  parameters: {
    PetBody: { in: 'body', name: 'body', required: true, description: 'The pet to store', schema: { $ref: '#/definitions/Pet' } },
    Verbose: { in: 'query', name: 'verbose', type: 'boolean' },
  },
  paths: {
    '/pets/{petId}/photo': {
      parameters: [{ name: 'petId', in: 'path', required: true, type: 'integer', format: 'int64' }],
      post: {
        summary: 'Upload a photo',
        consumes: ['multipart/form-data'],
        security: [{ basicAuth: [] }],
        parameters: [
          { name: 'caption', in: 'formData', type: 'string', maxLength: 80, description: 'Shown under the photo' },
          { name: 'kind', in: 'formData', type: 'string', enum: ['portrait', 'landscape'] },
          { name: 'photo', in: 'formData', type: 'file', required: true, description: 'The image file' },
        ],
        responses: { '200': { description: 'Stored', headers: { 'X-Quota': { type: 'integer', description: 'Uploads left' } }, schema: { $ref: '#/definitions/Pet' }, examples: { 'application/json': { id: 7, name: 'Rex' } } } },
      },
    },
    '/pets': {
      put: {
        summary: 'Replace a pet',
        security: [{ machine: ['pets:write'] }],
        parameters: [{ $ref: '#/parameters/PetBody' }, { $ref: '#/parameters/Verbose' }, { name: 'tags', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' }],
        responses: { '204': { description: 'Replaced' } },
      },
    },
  },
  definitions: {
    Pet: { type: 'object', discriminator: 'kind', required: ['name', 'kind'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, kind: { type: 'string' }, nick: { type: 'string', 'x-nullable': true } } },
  },
};

/** Parameter styles, relative servers and file uploads as public 3.x specs write them. */
export const REQUESTS_31 = {
  openapi: '3.1.0',
  info: { title: 'Requests', version: '1' },
  servers: [{ url: '/api/v3' }],
  paths: {
    '/search': {
      get: {
        summary: 'Search things',
        parameters: [
          { name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'string' } }, example: ['a1', 'b2'] },
          { name: 'tags', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } }, example: ['red', 'blue'] },
          { name: 'codes', in: 'query', style: 'pipeDelimited', schema: { type: 'array', items: { type: 'integer' } }, example: [4, 5] },
          { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', properties: { status: { type: 'string' } } }, example: { status: 'open' } },
          { name: 'X-Langs', in: 'header', schema: { type: 'array', items: { type: 'string' } }, example: ['en', 'fr'] },
          { name: 'sort', in: 'query', schema: { type: 'string' }, examples: { newest: { summary: 'Newest first', value: '-created' } } },
          { name: 'where', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'integer' } } } } }, example: { a: 1 } },
        ],
        responses: { '200': { description: 'OK' } },
      },
    },
    '/files': {
      servers: [{ url: '//files.test/v2' }],
      post: {
        summary: 'Upload files',
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  document: { type: 'string', format: 'binary' },
                  scans: { type: 'array', items: { type: 'string', contentMediaType: 'image/png' } },
                  labels: { type: 'array', items: { type: 'string' }, example: ['x', 'y'] },
                  note: { type: 'string', contentMediaType: 'text/plain', example: 'hello' },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};

/** OpenAPI 3.2 (Train Travel moved to it): QUERY, additionalOperations, itemSchema, dataValue. */
export const TRAINS_32 = {
  openapi: '3.2.0',
  info: { title: 'Trains', version: '1' },
  servers: [{ url: 'https://trains.test' }],
  paths: {
    '/trips': {
      query: {
        summary: 'Query trips',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { from: { type: 'string' } } }, examples: { berlin: { summary: 'From Berlin', dataValue: { from: 'Berlin' } } } } } },
        responses: { '200': { description: 'Trips', content: { 'application/json': { schema: { type: 'object' }, example: '{"trips": [], "total": 0}' } } } },
      },
    },
    '/trips/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      additionalOperations: {
        SUBSCRIBE: {
          summary: 'Follow a trip',
          responses: { '200': { description: 'Updates', content: { 'application/jsonl': { itemSchema: { type: 'object', properties: { delay: { type: 'integer', description: 'Minutes late' } } }, examples: { lines: { value: '{"delay":3}\n{"delay":5}\n' } } } } } },
        },
      },
    },
  },
};

/** Callbacks, mutual TLS, and a type list with inert `items` (OAI's and Redoc's examples). */
export const CALLBACKS_31 = {
  openapi: '3.1.0',
  info: { title: 'Streams', version: '1' },
  servers: [{ url: 'https://streams.test' }, { url: 'https://sandbox.streams.test' }],
  // A webhook goes to the subscriber's endpoint: the API's servers are not shown beside it.
  webhooks: {
    'stream.ended': { post: { summary: 'Stream ended', requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } }, responses: { '200': { description: 'Received' } } } },
  },
  paths: {
    '/streams': {
      post: {
        summary: 'Subscribe to a stream',
        security: [{ cert: [] }, { token: [] }],
        parameters: [{ name: 'callbackUrl', in: 'query', required: true, schema: { type: 'string', format: 'uri' } }],
        responses: { '201': { description: 'Subscribed', content: { 'application/json': { schema: { type: 'object', properties: { photoUrls: { type: ['string', 'integer', 'null'], items: { type: 'string' } } } } } } } },
        callbacks: {
          onData: {
            '{$request.query.callbackUrl}/data': {
              post: {
                summary: 'Data arrives',
                requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { reading: { type: 'number', description: 'The measured value' } } } } } },
                responses: { '202': { description: 'Accepted by your server' }, '204': { description: 'Stop sending' } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      cert: { type: 'mutualTLS', description: 'A certificate issued by us.' },
      token: { type: 'http', scheme: 'bearer' },
    },
  },
};

/** As FastAPI writes 3.1: `$ref` with a default beside it, anyOf of bare types, Optional as anyOf null. */
export const FASTAPI_31 = {
  openapi: '3.1.0',
  info: { title: 'FastAPI', version: '0.1.0' },
  paths: {
    '/items/': {
      post: {
        summary: 'Create Item',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
        responses: { '422': { description: 'Validation Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } } },
      },
    },
    // FastAPI's `Header()` beside `APIKeyHeader` / `HTTPBearer`: the credential is a parameter as well.
    '/items/{item_id}': {
      get: {
        summary: 'Read Item',
        // HMAC is defined nowhere (as in Modulr's spec): warned about, the key alternative shown.
        security: [{ HMAC: [] }, { APIKeyHeader: [] }],
        parameters: [
          { name: 'item_id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'x-api-key', in: 'header', required: true, description: 'The key from your dashboard', schema: { type: 'string' } },
          { name: 'q', in: 'query', schema: { type: 'string' } },
          // As Scribe lists them on every endpoint; OpenAPI says to ignore both.
          { name: 'Content-Type', in: 'header', schema: { type: 'string' }, example: 'application/json' },
          { name: 'Accept', in: 'header', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'Successful Response' } },
      },
      delete: {
        summary: 'Delete Item',
        security: [{ HTTPBearer: [] }],
        parameters: [
          { name: 'item_id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'authorization', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: { '204': { description: 'Deleted' } },
      },
    },
  },
  components: {
    securitySchemes: {
      APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      HTTPBearer: { type: 'http', scheme: 'bearer' },
    },
    schemas: {
      Item: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', title: 'Name' },
          kind: { $ref: '#/components/schemas/Kind', default: 'basic', description: 'What sort of item' },
          code: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'integer' }], title: 'Code' },
        },
      },
      Kind: { type: 'string', enum: ['basic', 'premium'], title: 'Kind' },
      HTTPValidationError: { type: 'object', properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } } },
      ValidationError: { type: 'object', required: ['loc'], properties: { loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, title: 'Location' } } },
    },
  },
};

/** JSON Schema keywords 3.1 brings that public specs use: a tuple (`prefixItems`), `patternProperties`. */
export const KEYWORDS_31 = {
  openapi: '3.1.0',
  info: { title: 'Keywords', version: '1' },
  servers: [{ url: 'https://keywords.test' }],
  paths: {
    '/points': {
      post: {
        summary: 'Add a point',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  at: { type: 'array', prefixItems: [{ type: 'number', description: 'Latitude' }, { type: 'number', description: 'Longitude' }], items: false },
                  path: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } },
                  pair: { type: 'array', prefixItems: [{ type: 'object', properties: { label: { type: 'string' } } }, { type: 'boolean' }] },
                  labels: { type: 'object', patternProperties: { '^x-': { type: 'string', description: 'An extension value' } }, additionalProperties: { type: 'integer' } },
                },
              },
            },
          },
        },
        responses: { '204': { description: 'Added' } },
      },
    },
    // HTML in spec text, as Scribe and javadoc-based generators write it.
    '/tokens': {
      post: {
        summary: 'Generate a token',
        description: '<b>Generate API token</b> for <i>your</i> app.<br>Returns a List<String> of scopes for {team}.\n\n<p onclick="steal()">Read <a href="https://docs.keywords.test">the guide</a>.</p>\n\n<script>alert(1)</script>',
        parameters: [{ name: 'scope', in: 'query', description: 'Use <code>read</code> or <strong>write</strong>; `<b>` in code stays code.', schema: { type: 'string' } }],
        responses: { '201': { description: 'Created <em>now</em>' } },
      },
    },
    // A base schema with a discriminator and no oneOf: Redoc's Pet → Cat, Dog (a mapping), and
    // what Spring writes for inheritance (no mapping: the schemas whose allOf names the base).
    '/pets': {
      post: {
        summary: 'Add a pet',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '200': { description: 'A shape', content: { 'application/json': { schema: { $ref: '#/components/schemas/Shape' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['name', 'petType'],
        discriminator: { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat', dog: 'Dog' } },
        properties: { name: { type: 'string' }, petType: { type: 'string', description: 'What sort of pet' } },
      },
      Cat: { allOf: [{ $ref: '#/components/schemas/Pet' }, { type: 'object', properties: { huntingSkill: { type: 'string', enum: ['lazy', 'aggressive'] } } }] },
      Dog: { allOf: [{ $ref: '#/components/schemas/Pet' }, { type: 'object', properties: { packSize: { type: 'integer' } } }] },
      Shape: { type: 'object', discriminator: { propertyName: 'kind' }, properties: { kind: { type: 'string' } } },
      Circle: { allOf: [{ $ref: '#/components/schemas/Shape' }, { properties: { radius: { type: 'number' } } }] },
      Square: { allOf: [{ $ref: '#/components/schemas/Shape' }, { properties: { side: { type: 'number' } } }] },
    },
  },
};

/** As Swagger's Petstore (3.0) writes XML beside JSON, and an XML-only API with `xml` names and attributes. */
export const PETSTORE_XML = {
  openapi: '3.0.2',
  info: { title: 'Petstore', version: '1' },
  servers: [{ url: 'https://petstore.test/api/v3' }],
  paths: {
    '/pet': {
      put: {
        summary: 'Update an existing pet',
        requestBody: { required: true, content: { 'application/xml': { schema: { $ref: '#/components/schemas/Pet' } }, 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '200': { description: 'ok', content: { 'application/xml': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
    '/orders': {
      post: {
        summary: 'Place an order',
        requestBody: { content: { 'application/xml': { schema: { $ref: '#/components/schemas/Order' } } } },
        responses: { '201': { description: 'Placed', content: { 'text/xml': { schema: { $ref: '#/components/schemas/Order' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        xml: { name: 'pet' },
        properties: {
          id: { type: 'integer', example: 10 },
          name: { type: 'string', example: 'doggie & co' },
          photoUrls: { type: 'array', xml: { wrapped: true }, items: { type: 'string', xml: { name: 'photoUrl' } } },
        },
      },
      Order: {
        type: 'object',
        properties: {
          id: { type: 'integer', example: 7, xml: { attribute: true } },
          items: { type: 'array', items: { type: 'string', example: 'sku-1', xml: { name: 'item' } } },
        },
      },
    },
  },
};
