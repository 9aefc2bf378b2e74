/** The endpoint header of an API page (`openapi: "GET /plants"`, `"spec.json POST /a"`, `"WEBHOOK /name"`). */
import { escapeHtml } from './html.js';

const ENDPOINT_RE = /^(?:(\S+)\s+)?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK)\s+(\S+)\s*$/i;

export interface Endpoint {
  method: string;
  path: string;
}

export function parseEndpoint(value: unknown): Endpoint | undefined {
  if (typeof value !== 'string') return undefined;
  const m = ENDPOINT_RE.exec(value.trim());
  if (!m?.[2] || !m[3]) return undefined;
  return { method: m[2].toUpperCase(), path: m[3] };
}

export function endpointHeader(endpoint: Endpoint): string {
  const method = endpoint.method.toLowerCase();
  return (
    `<div class="c-endpoint"><span class="c-endpoint__method c-endpoint__method--${method}">${escapeHtml(endpoint.method)}</span>` +
    `<code class="c-endpoint__path">${escapeHtml(endpoint.path)}</code></div>\n`
  );
}
