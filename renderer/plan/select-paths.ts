import { normaliseRef } from './slugs.js';

/** A `paths` entry matched no page: the export job answers 400 for it. */
export class UnknownPathsError extends Error {
  readonly unknown: string[];
  constructor(unknown: string[]) {
    super(`paths match no page: ${unknown.join(', ')}`);
    this.name = 'UnknownPathsError';
    this.unknown = unknown;
  }
}

/**
 * `paths` entries are slugs (`guides/intro`), prefixes (`guides`, `guides/`, `guides/**`) or globs
 * (`*` within one segment, `**` across segments). A plain slug also selects the pages under it.
 */
export function pathMatcher(pattern: string): (slug: string) => boolean {
  const trimmed = pattern.trim().replace(/^\/+/, '');
  if (!/[*?]/.test(trimmed)) {
    const slug = normaliseRef(trimmed);
    return (s) => s === slug || (slug !== 'index' && s.startsWith(`${slug}/`));
  }
  const source = trimmed
    .replace(/\.mdx?$/, '')
    .split(/(\*\*\/?|\*|\?)/)
    .map((part) => {
      if (part === '**' || part === '**/') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const re = new RegExp(`^${source}$`);
  return (s) => re.test(s);
}

/** The selected slugs, in the order given; throws UnknownPathsError for entries that match nothing. */
export function selectPaths(paths: readonly string[], slugs: readonly string[]): Set<string> {
  const selected = new Set<string>();
  const unknown: string[] = [];
  for (const p of paths) {
    const match = pathMatcher(p);
    let any = false;
    for (const s of slugs) {
      if (match(s)) {
        selected.add(s);
        any = true;
      }
    }
    if (!any) unknown.push(p);
  }
  if (unknown.length > 0) throw new UnknownPathsError(unknown);
  return selected;
}
