/**
 * docs.json `contextual`: the page menu of "Copy page", "View as Markdown" and the like
 * (mintlify-docs ai/contextual-menu.mdx). Inside a closed network only some options can work: the
 * ones that hand the page to a public AI service (ChatGPT, Claude…), install the hosted MCP server
 * or need a PDF service are left out, and the plan names them in one warning.
 */
import { isObject, str } from './config-fields.js';

export type ContextualHref = string | { base: string; query: { key: string; value: string }[] };

export type ContextualOption =
  | { kind: 'copy' }
  | { kind: 'view' }
  | { kind: 'download-spec' }
  | { kind: 'custom'; title: string; description: string; icon?: string; href: ContextualHref };

export interface ContextualSettings {
  options: ContextualOption[];
  display: 'header' | 'toc';
  /** Options written in the config and not shown, with why (for the plan's warning). */
  left: { option: string; why: string }[];
}

const OUTSIDE = 'it sends the page to a service outside the network';
const LEFT_OUT: Record<string, string> = {
  chatgpt: OUTSIDE,
  claude: OUTSIDE,
  perplexity: OUTSIDE,
  grok: OUTSIDE,
  aistudio: OUTSIDE,
  devin: OUTSIDE,
  'devin-desktop': OUTSIDE,
  mcp: 'it needs the hosted MCP server',
  'add-mcp': 'it needs the hosted MCP server',
  cursor: 'it needs the hosted MCP server',
  vscode: 'it needs the hosted MCP server',
  'devin-mcp': 'it needs the hosted MCP server',
  'download-pdf': 'pages are not exported as PDF',
  assistant: 'the menu does not open the reader assistant (its own button does)',
};

function href(v: unknown): ContextualHref | undefined {
  if (typeof v === 'string') return str(v);
  if (!isObject(v)) return undefined;
  const base = str(v['base']);
  if (!base) return undefined;
  const query = Array.isArray(v['query'])
    ? v['query'].flatMap((q) => (isObject(q) && typeof q['key'] === 'string' && typeof q['value'] === 'string' ? [{ key: q['key'], value: q['value'] }] : []))
    : [];
  return { base, query };
}

export function contextualSettings(raw: Record<string, unknown>): ContextualSettings {
  const options: ContextualOption[] = [];
  const left: ContextualSettings['left'] = [];
  const seen = new Set<string>();
  for (const o of Array.isArray(raw['options']) ? raw['options'] : []) {
    if (typeof o === 'string') {
      if (seen.has(o)) continue;
      seen.add(o);
      if (o === 'copy' || o === 'view' || o === 'download-spec') options.push({ kind: o });
      else left.push({ option: o, why: LEFT_OUT[o] ?? 'it is not an option the hosted platform lists' });
      continue;
    }
    if (!isObject(o)) continue;
    const title = str(o['title']);
    const target = href(o['href']);
    if (!title || !target) {
      left.push({ option: title ?? 'an option without a title', why: 'a custom option needs a title and an href' });
      continue;
    }
    if (JSON.stringify(target).includes('$mcp')) {
      left.push({ option: title, why: 'its link names the hosted MCP server ($mcp)' });
      continue;
    }
    const icon = str(o['icon']);
    options.push({ kind: 'custom', title, description: str(o['description']) ?? '', ...(icon ? { icon } : {}), href: target });
  }
  return { options, display: raw['display'] === 'toc' ? 'toc' : 'header', left };
}
