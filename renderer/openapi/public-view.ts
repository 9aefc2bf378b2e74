/**
 * An operation as a reader in no group sees it (issue 40, reader access on): schema properties
 * and `oneOf` variants with `x-mint.groups` and enum values listed in `x-mint-enum` left out. The
 * generated request/response examples and the playground's request description are built from it:
 * they are one block of code each, which fragment markers cannot cut property by property, so
 * they show only what every reader may see, hand-written examples included (example-filter.ts).
 * The fields list keeps everything, marked per group.
 */
import { publicExample } from './example-filter.js';
import type { ApiMedia, ApiOperation, ApiSchema } from './types.js';

function shownValue(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function schemaHasGroups(s: ApiSchema | undefined, seen = new Set<ApiSchema>()): boolean {
  if (!s || seen.has(s)) return false;
  seen.add(s);
  if (s.groups || s.enumGroups) return true;
  return (
    (s.properties ?? []).some((p) => schemaHasGroups(p.schema, seen)) ||
    (s.variants ?? []).some((v) => schemaHasGroups(v.schema, seen)) ||
    (s.prefixItems ?? []).some((p) => schemaHasGroups(p, seen)) ||
    schemaHasGroups(s.items, seen)
  );
}

function publicSchema(s: ApiSchema, memo: Map<ApiSchema, ApiSchema>): ApiSchema {
  const done = memo.get(s);
  if (done) return done;
  const out: ApiSchema = { ...s };
  memo.set(s, out);
  delete out.groups;
  delete out.enumGroups;
  if (s.example !== undefined) out.example = publicExample(s.example, s);
  if (s.enumGroups && s.enum) out.enum = s.enum.filter((v) => s.enumGroups![shownValue(v)] === undefined);
  if (s.properties) out.properties = s.properties.filter((p) => !p.schema.groups).map((p) => ({ ...p, schema: publicSchema(p.schema, memo) }));
  if (s.variants) out.variants = s.variants.filter((v) => !v.schema.groups).map((v) => ({ ...v, schema: publicSchema(v.schema, memo) }));
  if (s.items) out.items = publicSchema(s.items, memo);
  if (s.prefixItems) out.prefixItems = s.prefixItems.map((p) => publicSchema(p, memo));
  return out;
}

function publicMedia(list: ApiMedia[], memo: Map<ApiSchema, ApiSchema>): ApiMedia[] {
  return list.map((m) => (m.schema ? { ...m, schema: publicSchema(m.schema, memo), examples: m.examples.map((e) => ({ ...e, value: publicExample(e.value, m.schema) })) } : m));
}

/** The operation itself when nothing in it is for some groups only. */
export function publicOperation(op: ApiOperation): ApiOperation {
  const schemas = [...op.parameters.map((p) => p.schema), ...(op.requestBody?.media ?? []).map((m) => m.schema), ...op.responses.flatMap((r) => r.media.map((m) => m.schema))];
  if (!schemas.some((s) => schemaHasGroups(s))) return op;
  const memo = new Map<ApiSchema, ApiSchema>();
  return {
    ...op,
    parameters: op.parameters.filter((p) => !p.schema.groups).map((p) => ({ ...p, schema: publicSchema(p.schema, memo), ...(p.example !== undefined ? { example: publicExample(p.example, p.schema) } : {}) })),
    ...(op.requestBody ? { requestBody: { ...op.requestBody, media: publicMedia(op.requestBody.media, memo) } } : {}),
    responses: op.responses.map((r) => ({ ...r, media: publicMedia(r.media, memo) })),
  };
}
