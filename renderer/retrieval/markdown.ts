import { closesFence, fenceOpening } from '../page/fence-open.js';
import { splitFrontmatter } from './frontmatter-split.js';

const MODULE_LINE_RE = /^(import\s.+\sfrom\s+['"][^'"]+['"];?|import\s+['"][^'"]+['"];?|export\s+(const|let|function|default)\b.*)$/;

/**
 * `<Visibility for="humans">` is for the web page only and `<Visibility for="agents">` for the
 * Markdown only (mintlify-docs ai/markdown-export.mdx): the first is dropped here, the second
 * unwrapped.
 */
function applyVisibility(body: string): string {
  if (!body.includes('<Visibility')) return body;
  return body
    .replace(/<Visibility\s+for=["']humans["']\s*>[\s\S]*?<\/Visibility>\s*/g, '')
    .replace(/<Visibility\s+for=["']agents["']\s*>\n?([\s\S]*?)\n?\s*<\/Visibility>/g, '$1');
}

/** ESM import/export lines outside code fences: they mean nothing to a reader of the Markdown. */
function dropModuleLines(body: string): string {
  // Only a line starting with one of these words can go; most pages have neither.
  if (!body.includes('import') && !body.includes('export')) return body;
  let fence: string | undefined;
  const out: string[] = [];
  for (const line of body.split('\n')) {
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
      out.push(line);
      continue;
    }
    fence = fenceOpening(line);
    if (fence === undefined && MODULE_LINE_RE.test(line.trim())) continue;
    out.push(line);
  }
  return out.join('\n');
}

/**
 * The Markdown version of a page, as the hosted platform serves it at `<path>.md`: the title as a
 * heading, the description as a quote, then the page's MDX body (frontmatter and module lines
 * removed, components left as written). An API page's part of its spec follows (`apiSection`); a
 * page with neither MDX nor that part has its rendered text instead.
 */
export function pageMarkdown(page: { title: string; description?: string; source: string; fallbackText: string; apiSection?: string }): string {
  const written = applyVisibility(dropModuleLines(splitFrontmatter(page.source))).trim();
  // An API page's spec says what its rendered text would, and says it as an agent can use it.
  const body = page.apiSection ? (written ? `${written}\n\n${page.apiSection}` : page.apiSection) : written || page.fallbackText.trim();
  const head = `# ${page.title}\n\n${page.description ? `> ${page.description.replace(/\s*\n\s*/g, ' ')}\n\n` : ''}`;
  return `${head}${body}\n`;
}
