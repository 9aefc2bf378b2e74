/**
 * The strings that point at an operation: `GET /users`, `post /users` (any case),
 * `openapi.json GET /users`, `/specs/v2.yaml WEBHOOK order.updated`, and at a schema
 * (`openapi-schema: Order` or `spec.json Order`). Shared by navigation, frontmatter and the sidebar.
 */
/** Path item methods; `query` is OpenAPI 3.2's (the HTTP QUERY method). */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'] as const;

export interface OperationRef {
  /** The spec as written (a path or a short name), when the string names one. */
  spec?: string;
  /** Upper case: `GET`, …, or `WEBHOOK`. */
  method: string;
  /** The path (`/users/{id}`) or, for a webhook, its name. */
  path: string;
}

const OPERATION_RE = /^(?:(\S+)\s+)?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|QUERY|WEBHOOK)\s+(\S+)\s*$/i;

export function parseOperationRef(value: unknown): OperationRef | undefined {
  if (typeof value !== 'string') return undefined;
  const m = OPERATION_RE.exec(value.trim());
  if (!m?.[2] || !m[3]) return undefined;
  const ref: OperationRef = { method: m[2].toUpperCase(), path: m[3] };
  if (m[1]) ref.spec = m[1];
  return ref;
}

/** `Name` or `spec.json Name`. */
export function parseSchemaRef(value: unknown): { spec?: string; name: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const parts = value.trim().split(/\s+/);
  if (parts.length === 1 && parts[0]) return { name: parts[0] };
  if (parts.length === 2 && parts[0] && parts[1]) return { spec: parts[0], name: parts[1] };
  return undefined;
}

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
