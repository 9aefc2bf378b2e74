/**
 * What a schema's `oneOf`/`anyOf` choices are called and hold, once walked (schema.ts): titles for
 * choices the document does not name, and the object's own fields in each choice.
 */
import type { ApiProperty, ApiSchema, JsonValue } from './types.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Titles for choices that have neither a `title` nor a schema name, which read `object`, `object`:
 * Fern writes a union as inline `{allOf: [{properties: {type: {enum: [trace-create]}}}, $ref]}`
 * choices (Langfuse's ingestion events), Rust's utoipa and serde tag enums the same way inline
 * (`{type: {enum: [Simple]}}`), or externally, one object per variant holding one property
 * named after it (`{Conflict: …}`, `{NotFound: …}`). A property that holds one value in each
 * untitled choice (the discriminator's, when there is one) titles each by its value; else one
 * property each, named differently, titles each by its name; titles still alike are numbered.
 */
export function nameUntitled(variants: { title: string; schema: ApiSchema }[], untitled: boolean[], discriminator: string | undefined): void {
  const picked = variants.filter((_v, i) => untitled[i]);
  if (picked.length < 2) return;
  const single = (v: { schema: ApiSchema }, name: string): JsonValue | undefined => {
    const p = v.schema.properties?.find((x) => x.name === name);
    return p && p.schema.enum?.length === 1 && p.schema.enum[0] !== null && typeof p.schema.enum[0] !== 'object' ? p.schema.enum[0] : undefined;
  };
  const candidates = discriminator ? [discriminator] : (picked[0]?.schema.properties ?? []).map((p) => p.name);
  const distinct = (titles: (string | undefined)[]): titles is string[] => titles.every((t) => t !== undefined && t !== '') && new Set(titles).size === titles.length;
  let titles: (string | undefined)[] | undefined;
  for (const name of candidates) {
    const values = picked.map((v) => single(v, name));
    if (distinct(values.map((x) => (x === undefined ? undefined : String(x))))) {
      titles = values.map((x) => String(x));
      break;
    }
  }
  if (!titles) {
    const keys = picked.map((v) => (v.schema.properties?.length === 1 && v.schema.properties[0]?.name !== '{key}' ? v.schema.properties[0]?.name : undefined));
    if (distinct(keys)) titles = keys;
  }
  let k = 0;
  variants.forEach((v, i) => {
    if (untitled[i] && titles) v.title = titles[k++] as string;
  });
  // Still alike: by what each is as shown (`array`, `array` → `string[]`, `integer[]`; `string`,
  // `string` → `string<date-time>`, `now`), else numbered, so that a reader can tell the tabs apart.
  const alike = (): number[] => {
    const counts = new Map<string, number>();
    for (const v of variants) counts.set(v.title, (counts.get(v.title) ?? 0) + 1);
    return variants.flatMap((v, i) => (untitled[i] && (counts.get(v.title) ?? 0) > 1 ? [i] : []));
  };
  const shownAs = (x: ApiSchema): string => (x.enum?.length === 1 && x.enum[0] !== null && typeof x.enum[0] !== 'object' ? String(x.enum[0]) : x.enum ? `enum<${x.type}>` : x.format && !x.type.includes('|') ? `${x.type}<${x.format}>` : x.type);
  const same = alike();
  const labels = same.map((i) => shownAs((variants[i] as { schema: ApiSchema }).schema));
  if (new Set(labels).size === labels.length && labels.every((l) => l !== 'object' && l !== 'any')) same.forEach((i, k) => ((variants[i] as { title: string }).title = labels[k] as string));
  for (const i of alike()) (variants[i] as { title: string }).title = `Option ${i + 1}`;
}

/**
 * An object with fields of its own beside `oneOf`/`anyOf` (`{properties: {amount, currency},
 * oneOf: [{title: Card, properties: {card}}, …]}`, or "at least one of" written
 * `anyOf: [{required: [email]}, {required: [phone]}]`): both apply, so each choice holds the
 * object's fields and its own. Only the choices were shown, and the example was the first
 * choice's fields alone (`{"card": "tok_1"}` without the amount). A choice's `required` may name
 * the object's fields; a choice that only does that is titled by them (`email`, `phone`).
 */
export function withOwnFields(own: ApiProperty[], variants: { title: string; schema: ApiSchema }[], chosen: { nodes: unknown[]; untitled: boolean[] }): { title: string; schema: ApiSchema }[] {
  return variants.map((v, i) => {
    const node = chosen.nodes[i];
    const required = new Set(isObj(node) && Array.isArray(node['required']) ? node['required'].filter((x): x is string => typeof x === 'string') : []);
    if (v.schema.type !== 'object' && !v.schema.properties && required.size === 0) return v;
    const theirs = v.schema.properties ?? [];
    const names = new Set(theirs.map((p) => p.name));
    const properties = [...own.filter((p) => !names.has(p.name)).map((p) => (required.has(p.name) && !p.required ? { ...p, required: true } : p)), ...theirs];
    const onlyRequires = chosen.untitled[i] && theirs.length === 0 && required.size > 0;
    return { title: onlyRequires ? [...required].join(', ') : v.title, schema: { ...v.schema, type: 'object', properties } };
  });
}
