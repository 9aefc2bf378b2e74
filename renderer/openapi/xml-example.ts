/**
 * An example value as an XML document, for request bodies and responses whose media type is XML
 * (Swagger's Petstore offers `application/xml` first). Element names follow the schema's `xml`
 * object (`name`, `wrapped`, `attribute`) as OpenAPI defines it, else the property's name; the
 * root is the schema's `xml.name`, else its component name, else `root`.
 */
import type { ApiSchema, JsonValue } from './types.js';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeXml = (s: string): string => s.replace(/[&<>"]/g, (c) => XML_ESCAPES[c] ?? c);
// A name XML accepts (a property named `{key}` or `2fa` is not one): other characters become `_`.
const xmlName = (name: string): string => {
  const cleaned = name.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
};
const scalar = (v: JsonValue): string => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function xmlExample(value: JsonValue, schema: ApiSchema | undefined): string {
  const root = schema?.xml?.name ?? (schema?.title && !schema.title.includes(' ') ? schema.title : undefined) ?? 'root';
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(xmlName(root), value, schema, '')}`;
}

function element(name: string, value: JsonValue, schema: ApiSchema | undefined, pad: string): string {
  if (Array.isArray(value)) {
    const items = schema?.items;
    const itemName = xmlName(items?.xml?.name ?? name);
    const inner = value.map((v) => element(itemName, v, items, schema?.xml?.wrapped ? `${pad}  ` : pad)).join('\n');
    return schema?.xml?.wrapped ? `${pad}<${name}>\n${inner}\n${pad}</${name}>` : inner;
  }
  if (value !== null && typeof value === 'object') {
    const props = new Map((schema?.properties ?? []).map((p) => [p.name, p.schema]));
    let attributes = '';
    const children: string[] = [];
    for (const [key, v] of Object.entries(value)) {
      const s = props.get(key);
      const tag = xmlName(s?.xml?.name ?? key);
      if (s?.xml?.attribute && (v === null || typeof v !== 'object')) attributes += ` ${tag}="${escapeXml(scalar(v))}"`;
      else children.push(element(tag, v, s, `${pad}  `));
    }
    return children.length === 0 ? `${pad}<${name}${attributes}/>` : `${pad}<${name}${attributes}>\n${children.join('\n')}\n${pad}</${name}>`;
  }
  return `${pad}<${name}>${escapeXml(scalar(value))}</${name}>`;
}
