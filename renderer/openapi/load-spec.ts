/**
 * Reading one OpenAPI document for the plan: its text through the confined repository reader,
 * parsed (JSON or YAML), its version recognised, and the document checked against the official
 * schema of its version, with `@mintlify/openapi-parser` (MIT), the library Mintlify's own build runs on, so a document the
 * hosted platform reads the same way is read the same way here. Swagger 2.0 is upgraded to
 * OpenAPI 3 by swagger2.ts (the library's upgrade loses forms, uploads and auth kinds).
 *
 * `$ref`s are not resolved here but while an operation is compacted (refs.ts): only the parts an
 * operation uses are walked, cycles are cut there, and files it points at are read through the
 * same confined reader (see docs/api-reference.md for why not the library's eager dereference).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import AjvDraft04Module from 'ajv-draft-04';
import { details, normalize, OpenApiSpecifications } from '@mintlify/openapi-parser';
import { readRepoText } from '../repo-files.js';
import type { BuildWarning } from '../types.js';
import { upgradeSwagger2 } from './swagger2.js';

export type Json = Record<string, unknown>;

export interface ParsedSpec {
  /** Repository path of the document. */
  file: string;
  /** The document (Swagger 2.0 upgraded to OpenAPI 3); `$ref`s still in place. */
  doc: Json;
  /** As written: `2.0`, `3.0.3`, `3.1.0`. */
  version: string;
}

/** A spec larger than this is not read (a warning says so): parsing happens on the main thread. */
export const MAX_SPEC_BYTES = 32 * 1024 * 1024;
/** Schema errors listed per document; the rest are counted. */
const LISTED_ERRORS = 3;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON or YAML text → a value, or the parser's complaint. */
export function parseSpecText(text: string): { value: unknown } | { error: string } {
  try {
    return { value: normalize(text) as unknown };
  } catch (err) {
    return { error: err instanceof Error ? err.message.split('\n')[0] ?? 'unreadable' : String(err) };
  }
}

/**
 * The library's copy of the 3.1 schema has no `$ref` among a Path Item's properties, which the
 * specification allows ("Allows for a referenced definition of this path item"): every split spec
 * (`/users: {$ref: paths/users.yaml}`, Redocly's layout) got a false `openapi-schema` warning.
 * A copy with the property is compiled instead.
 */
function withPathItemRef(version: string, schema: Json): Json {
  const defs = schema['$defs'];
  const item = isObj(defs) ? defs['path-item'] : undefined;
  if (version !== '3.1' || !isObj(defs) || !isObj(item) || !isObj(item['properties']) || '$ref' in item['properties']) return schema;
  return { ...schema, $defs: { ...defs, 'path-item': { ...item, properties: { $ref: { type: 'string', format: 'uri-reference' }, ...item['properties'] } } } };
}

type Validate = ((doc: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
/** Compiled once per process per version: compiling the 3.1 schema costs a few hundred ms. */
const validators = new Map<string, Validate>();

function validatorFor(version: '2.0' | '3.0' | '3.1'): Validate {
  let v = validators.get(version);
  if (!v) {
    const schema = withPathItemRef(version, (OpenApiSpecifications as Record<string, Json>)[version] as Json);
    const addFormats = addFormatsModule as unknown as (ajv: unknown) => void;
    const AjvDraft04 = AjvDraft04Module as unknown as new (o: object) => Ajv2020;
    const ajv = schema['$schema'] === 'http://json-schema.org/draft-04/schema#' ? new AjvDraft04({ strict: false }) : new Ajv2020({ strict: false });
    addFormats(ajv);
    if (version === '3.1') ajv.addFormat('media-range', true);
    v = ajv.compile(schema) as unknown as Validate;
    validators.set(version, v);
  }
  return v;
}

/**
 * Read, parse, check and upgrade the spec at `file`. Returns undefined (with a warning) when there
 * is nothing usable; a document that fails its schema is still used, with a warning naming the
 * first few problems, as long as it has the shape pages are built from.
 */
export function loadSpec(repoRoot: string, file: string, warnings: BuildWarning[], { validate = true } = {}): ParsedSpec | undefined {
  let text: string;
  try {
    text = readRepoText(repoRoot, file, MAX_SPEC_BYTES);
  } catch (err) {
    warnings.push({ code: 'openapi-missing', message: `OpenAPI file ${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`, file });
    return undefined;
  }
  const parsed = parseSpecText(text);
  if ('error' in parsed || !isObj(parsed.value)) {
    const why = 'error' in parsed ? parsed.error : 'it is not an object';
    warnings.push({ code: 'openapi-invalid', message: `OpenAPI file ${file} is neither JSON nor YAML a spec can be read from (${why}); its pages are not built`, file });
    return undefined;
  }
  const doc = parsed.value;
  // OpenAPI 3.2 (September 2025; public specs such as Train Travel moved to it) is a superset of
  // 3.1 the parser library does not know yet: read as 3.1, and said so, since no schema checks it.
  const declared = typeof doc['openapi'] === 'string' ? doc['openapi'] : '';
  const is32 = /^3\.2\.\d+/.test(declared);
  const info = is32 ? { version: '3.1' as const, specificationVersion: declared } : (details(doc) as { version?: '2.0' | '3.0' | '3.1'; specificationVersion?: string });
  if (is32) {
    warnings.push({ code: 'openapi-version', message: `${file} is OpenAPI ${declared}: read as 3.1 (with 3.2's additionalOperations, query, itemSchema and dataValue) and not checked against a schema, which the parser library has only for 2.0, 3.0 and 3.1; its pages are built`, file });
  }
  if (!info.version) {
    warnings.push({ code: 'openapi-invalid', message: `${file} is not an OpenAPI 3.x or Swagger 2.0 document (no "openapi: 3.x" or "swagger: 2.0"); its pages are not built`, file });
    return undefined;
  }
  if (validate && !is32) {
    const check = validatorFor(info.version);
    if (!check(doc)) {
      const errors = check.errors ?? [];
      const listed = errors.slice(0, LISTED_ERRORS).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
      const more = errors.length > LISTED_ERRORS ? ` (and ${errors.length - LISTED_ERRORS} more)` : '';
      warnings.push({ code: 'openapi-schema', message: `${file} does not follow the OpenAPI ${info.version} schema: ${listed.join('; ')}${more}; pages are built from it as far as it can be read`, file });
    }
  }
  const upgraded = info.version === '2.0' ? upgradeSwagger2(doc) : doc;
  return { file, doc: upgraded, version: info.specificationVersion ?? info.version };
}
