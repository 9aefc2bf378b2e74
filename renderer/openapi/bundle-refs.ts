/**
 * A spec split over several files (`$ref: paths/users.yaml`, `$ref: ../schemas/User.yaml`) as one
 * document, for the part of it an API page's Markdown shows (spec-fragment.ts), the way `redocly
 * bundle` and `swagger-cli bundle` make one: a schema from another file becomes a component of the
 * document (`#/components/schemas/User`, named after its pointer's last part or its file), so it is
 * written once and reached as any component is; anything else from another file (a path item, a
 * parameter, a response, an example) is put where its `$ref` was. Before, a split spec's pages had
 * no spec part at all (their path items were `$ref`s the fragment could not follow), and the `$ref`s
 * an agent did see named files it could not open.
 *
 * A document with no `$ref` to another file comes back as it is (the same object). References that
 * do not resolve stay as written; compacting the operations has warned about them already.
 */
import type { Json } from './load-spec.js';
import type { RefResolver } from './resolve.js';
import { componentKey, refsIn } from './spec-fragment.js';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys of a schema whose value is a schema or a list of schemas (a list's items are walked as its kind), or a map of names to schemas. */
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems', 'contentSchema', 'allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Values that are data, not spec (a `$ref` key inside one is the data's own): in a schema, and elsewhere. */
const SCHEMA_DATA = new Set(['example', 'examples', 'default', 'enum', 'const']);
const DATA = new Set(['example', 'value']);

/** What a node is: a schema, a map of names to schemas, or any other part of the spec. */
type Kind = 'schema' | 'schemas' | 'other';

/** A component name from a pointer's last part or a file's stem, as OpenAPI allows them (`^[\w.-]+$`). */
function componentName(file: string, pointer: string): string {
  const last = pointer.split('/').pop();
  const raw = last ? last.replace(/~1/g, '/').replace(/~0/g, '~') : (file.split('/').pop() ?? file).replace(/\.(ya?ml|json)$/i, '');
  const name = raw.replace(/[^\w.-]+/g, '_');
  return name === '' ? 'Schema' : name;
}

/** `doc` (an OpenAPI 3 document read from `file`; Swagger 2.0 is upgraded before) as one document. */
export function bundleExternalRefs(doc: Json, file: string, resolver: RefResolver): Json {
  if (refsIn(doc).every((ref) => ref.startsWith('#'))) return doc;
  const existing = isObj(doc['components']) ? doc['components']['schemas'] : undefined;
  const taken = new Set(isObj(existing) ? Object.keys(existing) : []);
  /** `file#pointer` of each schema moved in → its component name; its bundled value by name. */
  const named = new Map<string, string>();
  const added = new Map<string, unknown>();
  /** Non-schema parts being put in place, to stop at a part that contains itself. */
  const inlining = new Set<string>();
  /**
   * Each node's result, by the file it is read from and what it is: a part shared through YAML
   * aliases is walked once (and stays shared), and a part that contains itself comes back as it is.
   */
  const done = new Map<string, WeakMap<object, unknown>>();

  const schemaRef = (target: { node: unknown; file: string; pointer: string }): string => {
    const key = `${target.file}#${target.pointer}`;
    let name = named.get(key);
    if (name === undefined) {
      const base = componentName(target.file, target.pointer);
      name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
      taken.add(name);
      named.set(key, name);
      // Named (and placed) before it is walked: a schema that refers back to itself reaches this
      // name, and the components come in the order they were met.
      added.set(name, undefined);
      added.set(name, walk(target.node, target.file, 'schema'));
    }
    return componentKey('schemas', name);
  };

  function walk(node: unknown, base: string, kind: Kind): unknown {
    if (typeof node !== 'object' || node === null) return node;
    let memo = done.get(`${base}\0${kind}`);
    if (!memo) done.set(`${base}\0${kind}`, (memo = new WeakMap()));
    if (memo.has(node)) return memo.get(node);
    memo.set(node, node);
    const value = walkNode(node, base, kind);
    memo.set(node, value);
    return value;
  }

  function walkNode(node: object, base: string, kind: Kind): unknown {
    if (Array.isArray(node)) {
      let changed = false;
      const out = node.map((v) => {
        const w = walk(v, base, kind === 'schemas' ? 'schema' : kind);
        if (w !== v) changed = true;
        return w;
      });
      return changed ? out : node;
    }
    if (!isObj(node)) return node;
    const ref = node['$ref'];
    if (typeof ref === 'string' && (base !== file || !ref.startsWith('#'))) {
      const target = resolver.lookUp(ref, base);
      if (target) {
        if (target.file === file) return { ...node, $ref: `#${target.pointer}` };
        if (kind === 'schema') return { ...node, $ref: schemaRef(target) };
        const key = `${target.file}#${target.pointer}`;
        if (!inlining.has(key)) {
          inlining.add(key);
          const value = walk(target.node, target.file, kind);
          inlining.delete(key);
          // OpenAPI 3.1 lets a reference carry a `summary` and `description` of its own.
          const { $ref: _ref, ...own } = node;
          return isObj(value) ? { ...value, ...own } : value;
        }
      }
      return node;
    }
    let out: Json | undefined;
    for (const [key, value] of Object.entries(node)) {
      const child = childKind(kind, key);
      if (child === undefined) continue;
      const w = walk(value, base, child);
      if (w !== value) (out ??= { ...node })[key] = w;
    }
    return out ?? node;
  }

  const bundled = walk(doc, file, 'other') as Json;
  if (added.size === 0) return bundled;
  const components = isObj(bundled['components']) ? bundled['components'] : {};
  const schemas = isObj(components['schemas']) ? components['schemas'] : {};
  return { ...bundled, components: { ...components, schemas: { ...schemas, ...Object.fromEntries(added) } } };
}

/** What the value under `key` of a `kind` node is; undefined for data, which is not walked. */
function childKind(kind: Kind, key: string): Kind | undefined {
  if (kind === 'schemas') return 'schema';
  // Vendor extensions are the vendor's own data (x-codeSamples, x-mint).
  if (key.startsWith('x-')) return undefined;
  if (kind === 'schema') return SCHEMA_DATA.has(key) ? undefined : SUBSCHEMAS.has(key) ? 'schema' : SUBSCHEMA_MAPS.has(key) ? 'schemas' : 'other';
  if (DATA.has(key)) return undefined;
  return key === 'schema' ? 'schema' : key === 'schemas' || key === 'definitions' ? 'schemas' : 'other';
}
