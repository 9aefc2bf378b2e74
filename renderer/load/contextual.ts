/**
 * docs.json `contextual`: the page menu of "Copy page", "View as Markdown" and the like
 * (mintlify-docs ai/contextual-menu.mdx). Inside a closed network only some options can work: the
 * ones that hand the page to a public AI service (ChatGPT, Claude…), to a hosted agent (Devin) or
 * need a PDF service are left out, and the plan names them in one warning. The MCP options and
 * "Ask assistant" point at the appliance's own MCP server and assistant, so they are shown where
 * the appliance serves the site (the page asks it, docs/site-layout.md "Page menu").
 */
import { isObject, str } from './config-fields.js';

export type ContextualHref = string | { base: string; query: { key: string; value: string }[] };

/** The options that install the site's MCP server in a tool, by their config names. */
export type McpOption = 'mcp' | 'add-mcp' | 'cursor' | 'vscode';
const MCP_OPTIONS: ReadonlySet<string> = new Set<McpOption>(['mcp', 'add-mcp', 'cursor', 'vscode']);

export type ContextualOption =
  | { kind: 'copy' }
  | { kind: 'view' }
  | { kind: 'download-spec' }
  | { kind: 'assistant' }
  | { kind: 'mcp'; option: McpOption }
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
  'devin-mcp': 'Devin runs outside the network and cannot reach the MCP server inside it',
  'download-pdf': 'pages are not exported as PDF',
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
      if (o === 'copy' || o === 'view' || o === 'download-spec' || o === 'assistant') options.push({ kind: o });
      else if (MCP_OPTIONS.has(o)) options.push({ kind: 'mcp', option: o as McpOption });
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
    const icon = str(o['icon']);
    options.push({ kind: 'custom', title, description: str(o['description']) ?? '', ...(icon ? { icon } : {}), href: target });
  }
  return { options, display: raw['display'] === 'toc' ? 'toc' : 'header', left };
}
