import { parse as parseYaml } from 'yaml';
import { parseOperationRef } from '../openapi/refs.js';
import { readRepoText } from '../repo-files.js';
import { ownCopy } from '../text-memo.js';

/** The few frontmatter fields the plan needs for sidebar labels and badges. */
export interface PageMeta {
  title?: string;
  sidebarTitle?: string;
  icon?: string;
  /** `GET` from `api: "GET /users"` / `openapi: "GET /users"`. */
  method?: string;
  /** `openapi:` as written (`GET /users`, `spec.json POST /a`): the operation the page shows. */
  openapi?: string;
  /** `openapi-schema:` as written (`Order`, `spec.json Order`). */
  openapiSchema?: string;
  /** `asyncapi:` as written (`/asyncapi.yaml channelOne`): the AsyncAPI channel the page shows. */
  asyncapi?: string;
  /** `deprecated: true` in the frontmatter, or a deprecated operation (generated pages): labelled in the sidebar. */
  deprecated?: boolean;
}

const FIELD = /^(title|sidebarTitle|icon|api|openapi|openapi-schema|asyncapi|deprecated)\s*:\s*(.*?)\s*$/;

function scalar(raw: string): string | undefined {
  if (raw === '' || raw === '|' || raw === '>') return undefined;
  if (raw.startsWith('"') || raw.startsWith("'")) {
    // A quoted string with no escapes is its inside; only escapes need the YAML library, which
    // costs ~50 µs a call (0.5 s of main-thread time before rendering can start, at 10,000 pages).
    const plain = raw.startsWith('"') ? /^"([^"\\]*)"$/.exec(raw) : /^'([^']*)'$/.exec(raw);
    if (plain) return plain[1];
    try {
      const v: unknown = parseYaml(raw);
      return typeof v === 'string' ? v : undefined;
    } catch {
      return raw.slice(1, -1);
    }
  }
  return raw.replace(/\s+#.*$/, '');
}

/**
 * Read a page's frontmatter fields without parsing the whole YAML block: the plan runs this for
 * every page on the main thread before rendering starts, so it has to cost next to nothing. The
 * page renderer parses the frontmatter properly; a label here is only a sidebar title.
 */
export function readPageMeta(repoRoot: string, file: string, onText?: (text: string) => void): PageMeta {
  let text: string;
  try {
    text = readRepoText(repoRoot, file);
  } catch {
    return {};
  }
  // The plan's other per-page reads (Tailwind class candidates) share this one read.
  onText?.(text);
  if (!text.startsWith('---')) return {};
  const end = text.indexOf('\n---', 3);
  if (end < 0) return {};
  const meta: PageMeta = {};
  for (const line of text.slice(3, end).split('\n')) {
    const m = FIELD.exec(line.replace(/\r$/, ''));
    if (!m) continue;
    const raw = scalar(m[2] ?? '');
    if (raw === undefined) continue;
    // A copy: the value is a slice of the page's whole text, and the plan keeps titles for every
    // page until the export ends (25,000 sources, about 100 MiB, were held through their titles).
    const value = ownCopy(raw);
    const key = m[1];
    if (key === 'title') meta.title = value;
    else if (key === 'sidebarTitle') meta.sidebarTitle = value;
    else if (key === 'icon') meta.icon = value;
    else if (key === 'openapi-schema') meta.openapiSchema = value;
    else if (key === 'asyncapi') meta.asyncapi = value;
    else if (key === 'deprecated') {
      if (value === 'true') meta.deprecated = true;
    }
    else {
      if (key === 'openapi') meta.openapi = value;
      // `GET /a`, `spec.json GET /a`, `short-name get /a`; `api:` may carry a full URL.
      const method = parseOperationRef(value)?.method ?? /^(get|post|put|patch|delete|head|options|trace|query|webhook)\b/i.exec(value)?.[1]?.toUpperCase();
      if (method) meta.method = method;
    }
  }
  return meta;
}
