/** Small OpenAPI documents for the API-reference tests: one per version and feature. */
import { stringify } from 'yaml';

export const PETS_31 = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: 'https://{region}.pets.test/v1', variables: { region: { default: 'eu' } } }],
  security: [{ bearer: [] }],
  tags: [{ name: 'pets', 'x-group': 'Pet store' }, { name: 'admin' }],
  paths: {
    '/pets': {
      get: {
        tags: ['pets'],
        summary: 'List pets',
        parameters: [
          { name: 'limit', in: 'query', description: 'How many to return', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'The pets', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } },
      },
      post: {
        tags: ['pets'],
        summary: 'Create pet',
        'x-codeSamples': [{ lang: 'bash', label: 'Pets CLI', source: 'pets create --name Rex' }],
        'x-mint': { metadata: { title: 'Adopt a pet', sidebarTitle: 'Adopt' }, content: '<Note>Adoption is **final**.</Note>' },
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: 'schemas/new-pet.yaml' } }, 'multipart/form-data': { schema: { type: 'object', properties: { photo: { type: 'string', format: 'binary' } } } } } },
        responses: { '201': { description: 'Created', content: { 'application/json': { examples: { rex: { summary: 'Rex', value: { id: 'p1', name: 'Rex' } } } } } }, '400': { description: 'Bad input' } },
      },
    },
    '/pets/{petId}': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: {
        tags: ['pets'],
        summary: 'Get pet',
        deprecated: true,
        description: 'Fetch one pet.',
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, '404': { description: 'No such pet' } },
      },
    },
    '/admin/keys': {
      get: { tags: ['admin'], summary: 'Admin keys', security: [{ basic: [] }, { key: [] }, { qkey: [] }, { ckey: [] }, { oauth: ['keys:read', 'keys:write'] }], responses: { '200': { description: 'OK' } } },
    },
    '/secret': { get: { tags: ['admin'], summary: 'Secret thing', 'x-hidden': true, responses: { '200': { description: 'OK' } } } },
    '/gone': { get: { tags: ['admin'], summary: 'Gone thing', 'x-excluded': true, responses: { '200': { description: 'OK' } } } },
  },
  webhooks: {
    'pet.adopted': { post: { summary: 'pet_adopted', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: { '200': { description: 'Received' } } } },
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      basic: { type: 'http', scheme: 'basic' },
      key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      qkey: { type: 'apiKey', in: 'query', name: 'api_key' },
      ckey: { type: 'apiKey', in: 'cookie', name: 'sid' },
      oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.pets.test/token', scopes: { 'keys:read': 'read', 'keys:write': 'write' } } } },
    },
    schemas: {
      Pet: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string', description: "The pet's *name*" },
          kind: { type: 'string', enum: ['dog', 'cat'] },
          parent: { $ref: '#/components/schemas/Pet' },
          nickname: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          owner: { oneOf: [{ title: 'Person', type: 'object', properties: { fullName: { type: 'string' } } }, { title: 'Company', type: 'object', properties: { vatNumber: { type: 'string' } } }] },
          record: { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { vaccinated: { type: 'boolean' } } }] },
        },
      },
      Base: { type: 'object', properties: { createdAt: { type: 'string', format: 'date-time' } } },
    },
  },
};

export const NEW_PET_YAML = stringify({ type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 40 }, secret: { type: 'string', writeOnly: true } } });

export const OLD_30 = {
  openapi: '3.0.3',
  info: { title: 'Old', version: '1' },
  paths: {
    '/things': {
      get: {
        summary: 'List things',
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { label: { type: 'string', nullable: true }, size: { type: 'number', minimum: 0, exclusiveMinimum: true } } } } } } },
      },
    },
    '/things/{id}': { get: { summary: 'Get thing', responses: { '200': { description: 'OK' } } } },
  },
};

export const SWAGGER_20 = {
  swagger: '2.0',
  info: { title: 'Ancient', version: '1' },
  host: 'ancient.test',
  basePath: '/api',
  schemes: ['https'],
  paths: {
    '/relics': {
      get: {
        summary: 'List relics',
        tags: ['relics'],
        parameters: [{ name: 'era', in: 'query', type: 'string', enum: ['bronze', 'iron'] }],
        responses: { '200': { description: 'OK', schema: { type: 'array', items: { $ref: '#/definitions/Relic' } } } },
      },
    },
  },
  definitions: { Relic: { type: 'object', properties: { age: { type: 'integer', format: 'int32' } } } },
};

export const yaml = (v: unknown): string => stringify(v);
