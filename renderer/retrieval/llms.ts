import { wrap } from '../access/contract.js';
import type { LlmsLinks } from './llms-links.js';
import type { LlmsEntry } from './types.js';

/** The hosted platform's cap on a generated llms.txt (mintlify-docs ai/llmstxt.mdx). */
export const MAX_LLMS_TXT_CHARS = 100_000;
const MAX_DESCRIPTION_CHARS = 300;

export interface LlmsSite {
  name: string;
  description?: string;
  /** `https://docs.example.com` when the export knows its domain; links stay root-relative otherwise. */
  origin: string;
  /** The "Agent Instructions" block (instructions.ts), after the title and description. */
  instructions?: string;
  /** Specs and external links, listed after the pages (llms-links.ts). */
  links?: LlmsLinks;
}

function mdPath(slug: string): string {
  return `/${slug}.md`;
}

/** First paragraph of a page description, at most 300 characters (cut at a word when it can be). */
function shortDescription(description: string | undefined): string | undefined {
  const first = description?.split(/\n\s*\n/)[0]?.replace(/\s+/g, ' ').trim();
  if (!first) return undefined;
  if (first.length <= MAX_DESCRIPTION_CHARS) return first;
  const cut = first.lastIndexOf(' ', MAX_DESCRIPTION_CHARS - 1);
  return `${first.slice(0, cut > 200 ? cut : MAX_DESCRIPTION_CHARS - 1)}…`;
}

const linkText = (t: string): string => t.replace(/[[\]]/g, '\\$&');

/** `## OpenAPI Specs`, `## AsyncAPI Specs` and `## Optional`, each only when it has entries. */
function trailer(site: LlmsSite): string {
  const links = site.links;
  if (!links) return '';
  const part = (heading: string, items: string[]) => (items.length > 0 ? `\n## ${heading}\n\n${items.join('')}` : '');
  return (
    part('OpenAPI Specs', links.openapi.map((s) => {
      const line = `- [${linkText(s.name)}](${site.origin}${s.path})\n`;
      return s.requirement ? wrap(s.requirement, line) : line;
    })) +
    part('AsyncAPI Specs', links.asyncapi.map((s) => `- [${linkText(s.name)}](${site.origin}${s.path})\n`)) +
    part('Optional', links.optional.map((l) => `- [${linkText(l.title)}](${l.href})\n`))
  );
}

function header(site: LlmsSite): string {
  return `# ${site.name}\n\n${site.description ? `> ${site.description.replace(/\s+/g, ' ').trim()}\n\n` : ''}`;
}

/**
 * llms.txt: the site's title and description, then one link per listed page (to its `.md`) with
 * its description, in navigation order. Over 100,000 characters the descriptions go first, then
 * entries from the end, and a note says how many were left out.
 */
export function buildLlmsTxt(site: LlmsSite, pages: readonly LlmsEntry[]): string {
  const entry = (p: LlmsEntry, withDescription: boolean): string => {
    const d = withDescription ? shortDescription(p.description) : undefined;
    const line = `- [${linkText(p.title)}](${site.origin}${mdPath(p.slug)})${d ? `: ${d}` : ''}\n`;
    return p.requirement ? wrap(p.requirement, line) : line;
  };
  const head = `${header(site)}${site.instructions ?? ''}## Docs\n\n`;
  const tail = trailer(site);
  let lines = pages.map((p) => entry(p, true));
  const size = (ls: string[]) => head.length + tail.length + ls.reduce((n, l) => n + l.length, 0);
  if (size(lines) <= MAX_LLMS_TXT_CHARS) return head + lines.join('') + tail;
  lines = pages.map((p) => entry(p, false));
  const note = (omitted: number) => `\n> ${omitted} more page${omitted === 1 ? ' is' : 's are'} left out of this file to keep it under ${MAX_LLMS_TXT_CHARS} characters; llms-full.txt has every page.\n`;
  // Entries dropped from the end, the running size kept as they go (not summed again each time).
  let kept = lines.length;
  let total = size(lines);
  while (kept > 0 && total + note(lines.length - kept).length > MAX_LLMS_TXT_CHARS) total -= (lines[--kept] as string).length;
  return head + lines.slice(0, kept).join('') + (kept < lines.length ? note(lines.length - kept) : '') + tail;
}

/**
 * A page's part of llms-full.txt: its title, source URL, description and full Markdown. Parts are
 * written in navigation order, each followed by a blank line; the render workers make them, so the
 * file is never held whole.
 */
export function llmsFullPart(origin: string, page: LlmsEntry & { markdown: string }): string {
  const body = page.markdown.replace(/^# [^\n]*\n\n(> [^\n]*\n\n)?/, '');
  const url = `${origin}${page.slug === 'index' ? '/' : `/${page.slug}`}`;
  return `# ${page.title}\nSource: ${url}\n\n${page.description ? `${page.description.trim()}\n\n` : ''}${body.trim()}\n\n`;
}
