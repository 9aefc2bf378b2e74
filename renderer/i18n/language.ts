import type { NavSection } from '../types.js';

/** The language tag a section's language division is titled with (`fr`, `pt-BR`), if it has one. */
function navLanguage(section: NavSection | undefined): string | undefined {
  const step = section?.trail.find((t) => t.kind === 'language');
  return step && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(step.title) ? step.title : undefined;
}

/** `<html lang>` and the chrome's language: a language division titled with a language tag (`fr`, `pt-BR`) sets it. */
export function languageOf(section: NavSection | undefined): string {
  return navLanguage(section) ?? 'en';
}

const shown = (s: NavSection): boolean => !s.hidden && !s.external && s.sidebar.length > 0;

/** The section a page outside every section is shown in (its chrome, its language): the first one a reader can open. */
export function defaultSection(sections: readonly NavSection[]): NavSection | undefined {
  return sections.find(shown);
}

/**
 * The section a page the navigation does not list is shown in, when its path names one of the
 * site's navigation languages: `es/api-reference/foo` on a site with an `es` language is in the
 * first `es` section a reader can open (so in Spanish, with the Spanish sidebar). Any other page
 * has none and is shown in the default section, in the site's first language.
 */
export function sectionOfPath(sections: readonly NavSection[], slug: string): NavSection | undefined {
  // `es/index.mdx` is the slug `es`: the first segment is the whole slug.
  const first = slug.split('/')[0]?.toLowerCase();
  if (!first) return undefined;
  return sections.find((s) => shown(s) && navLanguage(s)?.toLowerCase() === first);
}
