/** The endpoint header of an API page (`openapi: "GET /plants"`, `"spec.json POST /a"`, `"WEBHOOK /name"`). */
import { parseOperationRef } from '../openapi/refs.js';
import { escapeHtml } from './html.js';

export interface Endpoint {
  method: string;
  path: string;
}

/** The method and path of an `api:`/`openapi:` string: the same reading as navigation's (QUERY included). */
export function parseEndpoint(value: unknown): Endpoint | undefined {
  const ref = parseOperationRef(value);
  return ref ? { method: ref.method, path: ref.path } : undefined;
}

/** The header's two words in English (hand-written pages' headers pass their page's language). */
const ENGLISH_LABELS = { baseUrls: 'Base URLs', deprecated: 'deprecated' };

/**
 * `servers`: base URLs of a spec operation (shown before the path when `showBase`, or as a list
 * when there are several, as Mintlify's `api.url` setting says); `deprecated` adds a badge.
 */
export function endpointHeader(endpoint: Endpoint & { servers?: string[]; showBase?: boolean; deprecated?: boolean }, labels: { baseUrls: string; deprecated: string } = ENGLISH_LABELS): string {
  const method = endpoint.method.toLowerCase();
  const servers = endpoint.servers ?? [];
  const base = servers.length > 0 && (endpoint.showBase || servers.length > 1) ? servers[0] : undefined;
  const others =
    servers.length > 1
      ? `<ul class="c-endpoint__servers" aria-label="${escapeHtml(labels.baseUrls)}">${servers.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>`
      : '';
  return (
    `<div class="c-endpoint"><span class="c-endpoint__method c-endpoint__method--${method}">${escapeHtml(endpoint.method)}</span>` +
    (base ? `<code class="c-endpoint__base">${escapeHtml(base.replace(/\/+$/, ''))}</code>` : '') +
    `<code class="c-endpoint__path">${escapeHtml(endpoint.path)}</code>` +
    (endpoint.deprecated ? `<span class="c-field__badge c-field__badge--deprecated">${escapeHtml(labels.deprecated)}</span>` : '') +
    `${others}</div>\n`
  );
}
