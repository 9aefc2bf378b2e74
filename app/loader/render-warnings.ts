/** At most this many warnings are listed (all are counted): a big site can have thousands. */
export const MAX_LISTED_WARNINGS = 100;

export interface ListedWarning {
  code: string;
  message: string;
  file: string;
  line?: number;
  /** The reader URL of the page the warning is about, when its file is a page of the bundle. */
  page?: string;
}

/** A bundle's render warnings (manifest.json `warnings`) as publish status and the console show them. */
export interface WarningSummary {
  warningCount: number;
  warningsByKind: Record<string, number>;
  warnings: ListedWarning[];
}

/** `guides/intro.mdx` → `/guides/intro`, `index.mdx` → `/`, when `hasPage` knows the rendered page. */
function pageOf(file: string, hasPage: (rel: string) => boolean): string | undefined {
  const m = /^(.*)\.mdx?$/.exec(file);
  if (!m) return undefined;
  const slug = m[1]!;
  if (!hasPage(`${slug}.html`) && !hasPage(`${slug}/index.html`)) return undefined;
  return slug === 'index' ? '/' : `/${slug.replace(/\/index$/, '')}`;
}

/** Counted by code (sorted by count), the first MAX_LISTED_WARNINGS listed with a link to their page. */
export function summariseWarnings(raw: unknown, hasPage: (rel: string) => boolean): WarningSummary {
  const list = Array.isArray(raw) ? raw : [];
  const byKind = new Map<string, number>();
  const warnings: ListedWarning[] = [];
  for (const w of list as unknown[]) {
    if (typeof w !== 'object' || w === null) continue;
    const { code, message, file, line } = w as Record<string, unknown>;
    if (typeof code !== 'string' || typeof message !== 'string' || typeof file !== 'string') continue;
    byKind.set(code, (byKind.get(code) ?? 0) + 1);
    if (warnings.length < MAX_LISTED_WARNINGS) {
      const page = pageOf(file, hasPage);
      warnings.push({ code, message, file, ...(typeof line === 'number' ? { line } : {}), ...(page ? { page } : {}) });
    }
  }
  const warningsByKind = Object.fromEntries([...byKind].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
  return { warningCount: [...byKind.values()].reduce((n, c) => n + c, 0), warningsByKind, warnings };
}
