/**
 * Icons named by the configuration and by page frontmatter (tabs, anchors, dropdowns, groups,
 * pages, navbar and global links) are drawn on every page by the layout, in the workers; they
 * are checked here once for the whole site instead, each unknown one named with its file and line.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BuildWarning, NavLink, NavNode, NavSection, PlannedPage, SiteConfig } from '../types.js';
import { ICON_LIBRARIES, iconLibrary, renderIcon } from './index.js';

interface Use {
  name: string;
  /** The page whose frontmatter names it; the config file otherwise. */
  file?: string;
}

function nodeIcons(nodes: readonly NavNode[], pageFile: (slug: string) => string | undefined, out: Use[]): void {
  for (const n of nodes) {
    if (n.kind === 'page') {
      // A page's sidebar icon is its frontmatter `icon`.
      const file = pageFile(n.slug);
      if (n.icon) out.push(file ? { name: n.icon, file } : { name: n.icon });
    } else {
      if (n.icon) out.push({ name: n.icon });
      if (n.kind === 'group') nodeIcons(n.children, pageFile, out);
    }
  }
}

/** The 1-based line of the first match in `text`, if any. */
function lineOf(text: string | undefined, re: RegExp): number | undefined {
  if (text === undefined) return undefined;
  const m = re.exec(text);
  return m ? text.slice(0, m.index).split('\n').length : undefined;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

export function navigationIconWarnings(site: {
  repoRoot: string;
  configFile: string;
  config: SiteConfig;
  sections: readonly NavSection[];
  globalLinks: readonly NavLink[];
  pages: readonly PlannedPage[];
}): BuildWarning[] {
  const { repoRoot, configFile, config } = site;
  const warnings: BuildWarning[] = [];
  const texts = new Map<string, string | undefined>();
  const textOf = (file: string): string | undefined => {
    if (!texts.has(file)) texts.set(file, readText(path.join(repoRoot, file)));
    return texts.get(file);
  };

  const library = iconLibrary(config.iconLibrary);
  if (config.iconLibrary !== undefined && library === undefined) {
    const line = lineOf(textOf(configFile), /"library"\s*:/);
    warnings.push({
      code: 'unknown-icon-library',
      message: `"icons.library" is "${config.iconLibrary}", which is not one of ${ICON_LIBRARIES.map((l) => `"${l}"`).join(', ')}; Font Awesome is used`,
      file: configFile,
      ...(line ? { line } : {}),
    });
  }

  const uses: Use[] = [];
  const fileBySlug = new Map(site.pages.map((p) => [p.slug, p.file]));
  for (const section of site.sections) {
    for (const step of section.trail) if (step.icon) uses.push({ name: step.icon });
    nodeIcons(section.sidebar, (slug) => fileBySlug.get(slug), uses);
  }
  for (const link of [...config.navbar.links, ...(config.navbar.primary ? [config.navbar.primary] : []), ...site.globalLinks]) {
    if (link.icon) uses.push({ name: link.icon });
  }

  const seen = new Set<string>();
  for (const use of uses) {
    const file = use.file ?? configFile;
    const key = `${file}\0${use.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Image paths and URLs are not library icons (the layout leaves them out).
    if (use.name.includes('/') || use.name.includes('.')) continue;
    const problem = renderIcon(use.name, { library }).problem;
    if (!problem) continue;
    const name = escapeRe(use.name);
    const line = use.file ? lineOf(textOf(file), new RegExp(`^icon\\s*:\\s*["']?${name}`, 'm')) : lineOf(textOf(file), new RegExp(`"icon"\\s*:\\s*"${name}"`));
    warnings.push({ code: problem.code, message: `Navigation: ${problem.message}`, file, ...(line ? { line } : {}) });
  }
  return warnings;
}
