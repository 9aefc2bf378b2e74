/**
 * A parameter's example value as the request carries it, by its `style` and `explode`
 * (OpenAPI 3, "Style Values"): `?ids=1&ids=2` for a query array (form, exploded, the default),
 * `?ids=1,2` unexploded, `1|2` pipe-delimited, `?filter[status]=open` for `deepObject`, `1,2` in a
 * header. Before this, arrays and objects were JSON-encoded into the URL (`?ids=%5B...%5D`), which
 * no API reads. A parameter described by `content` (a JSON-encoded value) keeps its JSON text.
 */
import type { ApiParameter, JsonValue } from './types.js';

const isObj = (v: JsonValue): v is { [k: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A value as a request carries it as text: a string as it is, anything else as its JSON. */
export const valueText = (v: JsonValue): string => (typeof v === 'string' ? v : JSON.stringify(v));
const text = valueText;

/** The parameter's `style` and `explode`, with OpenAPI's defaults for where it is sent. */
export function paramStyle(p: Pick<ApiParameter, 'in' | 'style' | 'explode'>): { style: string; explode: boolean } {
  const style = p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple');
  return { style, explode: p.explode ?? style === 'form' };
}

export function serializedParameter(p: Pick<ApiParameter, 'name' | 'in' | 'style' | 'explode' | 'contentType'>, value: JsonValue): { name: string; value: string }[] {
  if (p.contentType !== undefined || (!Array.isArray(value) && !isObj(value))) return [{ name: p.name, value: text(value) }];
  const { style, explode } = paramStyle(p);
  if (Array.isArray(value)) {
    const items = value.map(text);
    if (p.in === 'query' && style === 'form' && explode) return items.map((v) => ({ name: p.name, value: v }));
    const sep = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
    return [{ name: p.name, value: items.join(sep) }];
  }
  const entries = Object.entries(value).map(([k, v]) => [k, text(v)] as const);
  if (p.in === 'query' && style === 'deepObject') return entries.map(([k, v]) => ({ name: `${p.name}[${k}]`, value: v }));
  // Each property its own key; one holding a list repeats it (Spring's `Pageable`: `sort=a&sort=b`,
  // as Spring reads it and Swagger UI sends it), not a JSON array in the URL.
  if (p.in === 'query' && style === 'form' && explode) return Object.entries(value).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item) => ({ name: k, value: text(item) })));
  return [{ name: p.name, value: entries.map(([k, v]) => (explode ? `${k}=${v}` : `${k},${v}`)).join(',') }];
}

/**
 * A form body field as the request carries it. A field the media type's `encoding` sends as
 * `deepObject` (Stripe's spec declares one for every object and list field of its form bodies) is
 * written with brackets, as Stripe, Rails and PHP read forms: `metadata[order_id]=6735`,
 * `address[city]=Paris`, nested objects deeper (`a[b][c]`), a list `expand[]=customer` per item.
 * Other fields: a list is one pair per item, anything else its text (an object stays JSON, as the
 * specification defines no other form for it without an `encoding`).
 */
export function formEntries(name: string, value: JsonValue, deep: boolean): { name: string; value: string }[] {
  if (deep && (Array.isArray(value) || isObj(value))) {
    const out: { name: string; value: string }[] = [];
    const walk = (key: string, v: JsonValue): void => {
      if (Array.isArray(v)) for (const item of v) walk(`${key}[]`, item);
      else if (isObj(v)) for (const [k, x] of Object.entries(v)) walk(`${key}[${k}]`, x);
      else out.push({ name: key, value: text(v) });
    };
    walk(name, value);
    return out;
  }
  if (Array.isArray(value)) return value.map((item) => ({ name, value: text(item) }));
  return [{ name, value: text(value) }];
}
