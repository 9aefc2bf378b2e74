/**
 * An Apache Avro schema → the JSON Schema a channel page shows. AsyncAPI lets a message's payload
 * be written in Avro (`schemaFormat: application/vnd.apache.avro;version=1.9.0`), as Kafka teams
 * with a schema registry do; read as JSON Schema, a record showed as `payload record` and the
 * example as `"<record>"`. Records become objects (a field without a default is required), enums
 * string enums, arrays and maps arrays and `additionalProperties`, a union with `null` a nullable
 * field; `doc` is the description and a logical type the format. A named type used again is the
 * same object, so a recursive record is cut where it recurs, as a JSON Schema one is.
 */
type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True for an Avro `schemaFormat` (`application/vnd.apache.avro`, `+json`, `+yaml`, any version). */
export function isAvroFormat(format: unknown): boolean {
  return typeof format === 'string' && /^application\/vnd\.apache\.avro(?:[+;]|$)/i.test(format.trim());
}

const PRIMITIVES: Record<string, Json> = {
  null: { type: 'null' },
  boolean: { type: 'boolean' },
  int: { type: 'integer', format: 'int32' },
  long: { type: 'integer', format: 'int64' },
  float: { type: 'number', format: 'float' },
  double: { type: 'number', format: 'double' },
  bytes: { type: 'string', format: 'byte' },
  string: { type: 'string' },
};

const converted = new WeakMap<object, Json>();

/** The JSON Schema of an Avro schema (a parsed `.avsc`: a type name, a union list or a type object). */
export function avroToJsonSchema(avro: unknown): Json {
  if (isObj(avro)) {
    const done = converted.get(avro);
    if (done) return done;
  }
  const out = convert(avro, new Map(), undefined);
  if (isObj(avro)) converted.set(avro, out);
  return out;
}

function convert(t: unknown, named: Map<string, Json>, namespace: string | undefined): Json {
  if (typeof t === 'string') {
    const primitive = PRIMITIVES[t];
    if (primitive) return { ...primitive };
    return named.get(t) ?? named.get(namespace ? `${namespace}.${t}` : t) ?? { type: 'object', title: t.split('.').pop() };
  }
  if (Array.isArray(t)) {
    const choices = t.map((x) => convert(x, named, namespace));
    return choices.length === 1 ? (choices[0] as Json) : { anyOf: choices };
  }
  if (!isObj(t)) return {};
  const type = t['type'];
  const ns = typeof t['namespace'] === 'string' ? t['namespace'] : namespace;
  const name = typeof t['name'] === 'string' ? t['name'] : undefined;
  const doc = typeof t['doc'] === 'string' ? { description: t['doc'] } : {};
  const register = (schema: Json): Json => {
    if (name) {
      named.set(name, schema);
      named.set(name.includes('.') || !ns ? name : `${ns}.${name}`, schema);
    }
    return schema;
  };
  if (type === 'record' || type === 'error') {
    // Registered before its fields, so that a field naming the record itself refers to this object.
    const schema = register({ type: 'object', ...(name ? { title: name.split('.').pop() } : {}), ...doc });
    const properties: Json = {};
    const required: string[] = [];
    for (const f of Array.isArray(t['fields']) ? t['fields'] : []) {
      if (!isObj(f) || typeof f['name'] !== 'string') continue;
      const field = convert(f['type'], named, ns);
      const extra: Json = {};
      if (typeof f['doc'] === 'string') extra['description'] = f['doc'];
      if (f['default'] !== undefined) extra['default'] = f['default'];
      // Keywords beside a shared named type go on a copy (as `$ref` siblings do in JSON Schema).
      properties[f['name']] = Object.keys(extra).length > 0 ? { allOf: [field], ...extra } : field;
      if (f['default'] === undefined) required.push(f['name']);
    }
    schema['properties'] = properties;
    if (required.length > 0) schema['required'] = required;
    return schema;
  }
  if (type === 'enum') {
    const symbols = Array.isArray(t['symbols']) ? t['symbols'].filter((s): s is string => typeof s === 'string') : [];
    return register({ type: 'string', enum: symbols, ...doc });
  }
  if (type === 'fixed') return register({ type: 'string', ...(typeof t['size'] === 'number' ? { minLength: t['size'], maxLength: t['size'] } : {}), ...doc });
  if (type === 'array') return { type: 'array', items: convert(t['items'], named, ns), ...doc };
  if (type === 'map') return { type: 'object', additionalProperties: convert(t['values'], named, ns), ...doc };
  // A primitive written as an object, perhaps with a logical type (`{type: long, logicalType: timestamp-millis}`).
  const base = convert(type, named, ns);
  return typeof t['logicalType'] === 'string' ? { ...base, format: t['logicalType'], ...doc } : { ...base, ...doc };
}
