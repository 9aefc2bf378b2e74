/**
 * Server variables (`servers[].variables`): the request examples and the page header show each
 * variable's `default` (its first `enum` value when a spec gives none: the spec requires a default,
 * and an enum's first value is what a reader would pick), and the playground lets the reader
 * choose, from the `enum` when there is one (docs/api-reference.md, "Playground").
 */
type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ServerVariable {
  name: string;
  /** What examples show: the `default`, else the first `enum` value. */
  default: string;
  enum?: string[];
  description?: string;
}

/** A server URL with `{variables}` the playground asks for. */
export interface ServerTemplate {
  url: string;
  variables: ServerVariable[];
}

function variableOf(name: string, raw: unknown): ServerVariable | undefined {
  if (!isObj(raw)) return undefined;
  const values = Array.isArray(raw['enum']) ? raw['enum'].filter((v) => typeof v === 'string' || typeof v === 'number').map(String) : [];
  const fallback = raw['default'] !== undefined && raw['default'] !== null && typeof raw['default'] !== 'object' ? String(raw['default']) : values[0];
  if (fallback === undefined) return undefined;
  return {
    name,
    default: fallback,
    ...(values.length > 0 ? { enum: values } : {}),
    ...(typeof raw['description'] === 'string' && raw['description'].trim() !== '' ? { description: raw['description'] } : {}),
  };
}

/**
 * `url` with each variable it names filled in (a name the server does not define stays as
 * written), and the template when it has variables to choose.
 */
export function fillServer(url: string, variables: unknown): { url: string; template?: ServerTemplate } {
  if (!url.includes('{')) return { url };
  const vars = isObj(variables) ? variables : {};
  const used: ServerVariable[] = [];
  const filled = url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const v = Object.hasOwn(vars, name) ? variableOf(name, vars[name]) : undefined;
    if (!v) return whole;
    if (!used.some((u) => u.name === name)) used.push(v);
    return v.default;
  });
  return used.length > 0 ? { url: filled, template: { url, variables: used } } : { url: filled };
}
