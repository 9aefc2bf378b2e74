import { LEGACY_RETRIEVAL_FORMAT, RETRIEVAL_FORMAT, type RetrievalSection } from './types.js';

export interface SectionIndex {
  name: string | undefined;
  sections: RetrievalSection[];
}

/** The index file's first line: its format and the site's name. */
export function sectionIndexHeader(name: string): string {
  return `${JSON.stringify({ format: RETRIEVAL_FORMAT, name })}\n`;
}

/** One section as a line of the index. */
export function sectionLine(section: RetrievalSection): string {
  return `${JSON.stringify(section)}\n`;
}

function isSection(v: unknown): v is RetrievalSection {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return typeof s['path'] === 'string' && typeof s['url'] === 'string' && typeof s['title'] === 'string' && typeof s['heading'] === 'string' && typeof s['text'] === 'string';
}

/** One line of a format-2 index as a section, or undefined for a blank line or one of a newer format. */
export function sectionFromLine(line: string): RetrievalSection | undefined {
  if (!line) return undefined;
  try {
    const v: unknown = JSON.parse(line);
    return isSection(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Read a section index of format 2 (NDJSON). A line that is not a section is skipped, not fatal:
 * the bundle's hash was verified when it was loaded, so such a line comes from a newer format.
 * Returns undefined for a file whose header is not format 2.
 */
export function parseSectionIndex(text: string): SectionIndex | undefined {
  const lines = text.split('\n');
  let header: { format?: unknown; name?: unknown };
  try {
    header = JSON.parse(lines[0] ?? '') as typeof header;
  } catch {
    return undefined;
  }
  if (header.format !== RETRIEVAL_FORMAT) return undefined;
  const sections: RetrievalSection[] = [];
  for (let i = 1; i < lines.length; i++) {
    const s = sectionFromLine(lines[i] as string);
    if (s) sections.push(s);
  }
  return { name: typeof header.name === 'string' ? header.name : undefined, sections };
}

/** Read the format-1 index of bundles made before format 2 (one JSON document). */
export function parseLegacySectionIndex(text: string): SectionIndex | undefined {
  try {
    const file = JSON.parse(text) as { format?: unknown; name?: unknown; sections?: unknown };
    if (file.format !== LEGACY_RETRIEVAL_FORMAT || !Array.isArray(file.sections)) return undefined;
    return { name: typeof file.name === 'string' ? file.name : undefined, sections: file.sections.filter(isSection) };
  } catch {
    return undefined;
  }
}
