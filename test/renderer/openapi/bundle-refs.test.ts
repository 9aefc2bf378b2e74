/**
 * A split spec as one document for API pages' Markdown (renderer/openapi/bundle-refs.ts): schemas
 * from other files become components, other parts are put in place, each `$ref` read from the file
 * it is written in.
 */
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { bundleExternalRefs } from '../../../renderer/openapi/bundle-refs.js';
import type { Json } from '../../../renderer/openapi/load-spec.js';
import { RefResolver } from '../../../renderer/openapi/resolve.js';
import type { BuildWarning } from '../../../renderer/types.js';
import { tempSite } from '../load/site-fixtures.js';
import { exportedSite, specTabsSite } from './exported-pages.js';

const ok = (schema: Json): Json => ({ '200': { description: 'OK', content: { 'application/json': { schema } } } });

/** `doc` bundled as read from openapi.yaml beside `files` (the document itself is handed over, as the registry does). */
function bundle(doc: Json, files: Record<string, unknown>): { out: Json; warnings: BuildWarning[] } {
  const root = tempSite({ 'openapi.yaml': 'openapi: 3.1.0\n', ...Object.fromEntries(Object.entries(files).map(([f, v]) => [f, typeof v === 'string' ? v : stringify(v)])) });
  const warnings: BuildWarning[] = [];
  const resolver = new RefResolver(root, warnings);
  resolver.addDocument('openapi.yaml', doc);
  return { out: bundleExternalRefs(doc, 'openapi.yaml', resolver), warnings };
}

const HEAD = { openapi: '3.1.0', info: { title: 'Split', version: '1' } };

describe('bundling a split spec for the Markdown of its pages', () => {
  it('a document whose references are all its own comes back as the same object', () => {
    const doc: Json = { ...HEAD, paths: { '/a': { get: { responses: ok({ $ref: '#/components/schemas/A' }) } } }, components: { schemas: { A: { type: 'object' } } } };
    expect(bundle(doc, {}).out).toBe(doc);
  });

  it("puts a path item from another file in place; its schemas become components, each read from the file it is written in; a pointer back into the spec becomes the spec's own", () => {
    const doc: Json = { ...HEAD, paths: { '/users': { $ref: 'paths/users.yaml' } }, components: { schemas: { Error: { type: 'object', properties: { detail: { type: 'string' } } } } } };
    const { out, warnings } = bundle(doc, {
      'paths/users.yaml': {
        get: {
          parameters: [{ $ref: '../parameters/limit.yaml' }],
          responses: { ...ok({ $ref: '../schemas/User.yaml' }), default: { description: 'Failed', content: { 'application/json': { schema: { $ref: '../openapi.yaml#/components/schemas/Error' } } } } },
        },
      },
      'parameters/limit.yaml': { name: 'limit', in: 'query', schema: { $ref: '../schemas/Limit.yaml' } },
      'schemas/User.yaml': { type: 'object', properties: { id: { type: 'string' }, address: { $ref: './common.yaml#/Address' } } },
      'schemas/common.yaml': { Address: { type: 'object', properties: { city: { type: 'string' } } } },
      'schemas/Limit.yaml': { type: 'integer', maximum: 100 },
    });
    expect(warnings).toEqual([]);
    const get = (out['paths'] as any)['/users'].get;
    expect(get.parameters).toEqual([{ name: 'limit', in: 'query', schema: { $ref: '#/components/schemas/Limit' } }]);
    expect(get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/User' });
    expect(get.responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const schemas = (out['components'] as any).schemas;
    // The document's own first, then the moved ones in the order they were met.
    expect(Object.keys(schemas)).toEqual(['Error', 'Limit', 'User', 'Address']);
    expect(schemas.User).toEqual({ type: 'object', properties: { id: { type: 'string' }, address: { $ref: '#/components/schemas/Address' } } });
    expect(schemas.Address).toEqual({ type: 'object', properties: { city: { type: 'string' } } });
    // The parsed document is not changed.
    expect((doc['paths'] as any)['/users']).toEqual({ $ref: 'paths/users.yaml' });
  });

  it('a schema that recurs through its own file is one component that names itself; a name the spec has gets a number', () => {
    const doc: Json = { ...HEAD, paths: { '/nodes': { get: { responses: ok({ $ref: 'schemas/Node.yaml' }) } } }, components: { schemas: { Node: { type: 'string' } } } };
    const { out } = bundle(doc, { 'schemas/Node.yaml': { type: 'object', properties: { children: { type: 'array', items: { $ref: './Node.yaml' } }, self: { $ref: '#' } } } });
    const schemas = (out['components'] as any).schemas;
    expect(Object.keys(schemas)).toEqual(['Node', 'Node-2']);
    expect(schemas['Node-2'].properties.children.items).toEqual({ $ref: '#/components/schemas/Node-2' });
    expect(schemas['Node-2'].properties.self).toEqual({ $ref: '#/components/schemas/Node-2' });
    expect((out['paths'] as any)['/nodes'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Node-2' });
  });

  it("a reference's own description wins over the part it names, and a part that contains itself stops where it would repeat", () => {
    const doc: Json = { ...HEAD, paths: { '/a': { get: { responses: { '200': { $ref: 'responses/ok.yaml', description: 'Said here.' } } } }, '/loop': { $ref: 'paths/loop.yaml' } } };
    const { out } = bundle(doc, {
      'responses/ok.yaml': { description: 'Said there.', headers: { 'X-Rate': { $ref: 'rate.yaml' } } },
      'responses/rate.yaml': { schema: { type: 'integer' } },
      'paths/loop.yaml': { get: { callbacks: { again: { '{$request.body#/url}': { $ref: 'loop.yaml' } } }, responses: ok({ type: 'string' }) } },
    });
    const paths = out['paths'] as any;
    expect(paths['/a'].get.responses['200']).toEqual({ description: 'Said here.', headers: { 'X-Rate': { schema: { type: 'integer' } } } });
    expect(paths['/loop'].get.callbacks.again['{$request.body#/url}']).toEqual({ $ref: 'loop.yaml' });
  });

  it('leaves a reference that names nothing as written, without a warning of its own, and data that holds a `$ref` key alone', () => {
    const example = { $ref: 'not/a/file.yaml', note: 'data' };
    const doc: Json = {
      ...HEAD,
      paths: { '/a': { get: { 'x-codeSamples': [{ lang: 'bash', source: '$ref' }], responses: ok({ $ref: 'missing.yaml', example }) } }, '/b': { $ref: 'paths/b.yaml' } },
    };
    const { out, warnings } = bundle(doc, { 'paths/b.yaml': { get: { responses: ok({ type: 'object', default: { $ref: 'x.yaml' } }) } } });
    expect(warnings).toEqual([]);
    const paths = out['paths'] as any;
    expect(paths['/a']).toBe((doc['paths'] as any)['/a']);
    expect(paths['/b'].get.responses['200'].content['application/json'].schema.default).toEqual({ $ref: 'x.yaml' });
    expect(out['components']).toBeUndefined();
  });

  it('reads a list of 1,000,000 values (an enum) without passing the engine\'s argument limit', () => {
    const codes = Array.from({ length: 1_000_000 }, (_, i) => `c${i}`);
    const doc: Json = { ...HEAD, paths: { '/users': { $ref: 'paths/users.yaml' }, '/codes': { get: { responses: ok({ type: 'string', enum: codes }) } } } };
    const { out } = bundle(doc, { 'paths/users.yaml': { get: { responses: ok({ type: 'string' }) } } });
    expect((out['paths'] as any)['/users'].get.responses['200'].content['application/json'].schema).toEqual({ type: 'string' });
    expect((out['paths'] as any)['/codes']).toBe((doc['paths'] as any)['/codes']);
  });

  it('a document that contains itself (a YAML alias) is walked once, shared parts stay shared', () => {
    const shared: Json = { type: 'object', properties: { user: { $ref: 'schemas/User.yaml' } } };
    const loop: Json = { type: 'object' };
    loop['properties'] = { again: loop };
    const doc: Json = { ...HEAD, paths: { '/a': { get: { responses: ok(shared) } }, '/b': { get: { responses: ok(shared) } }, '/c': { get: { responses: ok(loop) } } } };
    const { out } = bundle(doc, { 'schemas/User.yaml': { type: 'string' } });
    const paths = out['paths'] as any;
    const a = paths['/a'].get.responses['200'].content['application/json'].schema;
    expect(a.properties.user).toEqual({ $ref: '#/components/schemas/User' });
    expect(paths['/b'].get.responses['200'].content['application/json'].schema).toBe(a);
    expect(paths['/c'].get.responses['200'].content['application/json'].schema).toBe(loop);
  });
});

describe('an exported site whose spec is split over files', () => {
  const spec = {
    ...HEAD,
    servers: [{ url: 'https://api.split.test' }],
    paths: { '/users': { $ref: 'paths/users.yaml' }, '/teams': { get: { summary: 'List teams', responses: ok({ $ref: 'schemas/broken.yaml' }) } } },
  };
  const { result } = exportedSite(
    specTabsSite('Split', [{ tab: 'API', source: 'openapi.yaml', directory: 'api', doc: spec }], {
      'paths/users.yaml': stringify({ get: { summary: 'List users', responses: ok({ $ref: '../schemas/User.yaml' }) } }),
      'schemas/User.yaml': stringify({ type: 'object', properties: { name: { type: 'string' } } }),
      'schemas/broken.yaml': 'type: [object\n',
    }),
  );
  const markdown = (slug: string): string => Buffer.from(result().files.get(`${slug}.md`) ?? []).toString('utf8');

  it("gives a page whose path item is in another file its part of the spec, the file's schema a component", () => {
    const md = markdown('api/list-users');
    const yaml = /\n````yaml openapi.yaml get \/users\n([\s\S]*?)\n````/.exec(md)?.[1];
    expect(yaml, md).toBeDefined();
    const part = parse(yaml as string) as any;
    expect(part.paths['/users'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/User' });
    expect(part.components.schemas).toEqual({ User: { type: 'object', properties: { name: { type: 'string' } } } });
  });

  it('still warns about a file that does not parse, though bundling read it first', () => {
    const refs = result().warnings.filter((w) => w.code === 'openapi-ref');
    expect(refs.map((w) => w.message)).toEqual([expect.stringContaining('refers to schemas/broken.yaml, which')]);
  });
});
