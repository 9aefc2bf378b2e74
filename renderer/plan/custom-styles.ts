import { isOutsideBundle, splitUrlSuffix, toRepoPath } from '../repo-paths.js';
import type { BuildWarning } from '../types.js';

/**
 * A repository's own stylesheets (every `.css` outside snippets, loaded on every page as on
 * Mintlify) are copied into the bundle under content-hashed names, so the URLs inside them have to
 * follow:
 *
 * - `url(/images/bg.png)`, `url(../fonts/x.woff2)`: rewritten to the asset's bundle URL (the
 *   original path does not exist in the bundle);
 * - `url(https://…)`, `@import "https://…"` (web fonts, CDN styles): replaced by an empty data URL
 *   or a comment, since the exported site loads nothing from outside the bundle, and reported as
 *   `external-style` warnings so the author can bring the file into the repository;
 * - `@import` of another stylesheet of the repository: removed, since every stylesheet is already
 *   loaded on every page.
 *
 * A regular expression pass rather than a CSS parser: browsers accept stylesheets a strict parser
 * refuses, and only `url(…)` and `@import` matter here.
 */

/** `url(…)` with or without quotes. */
const URL_RE = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)/gi;
/** A whole `@import` rule: `@import "x" screen;`, `@import url(x);`. */
const IMPORT_RE = /@import\s+(?:url\(\s*)?(?:"([^"]*)"|'([^']*)'|([^)"'\s;]+))\s*\)?[^;]*;?/gi;
/** `data:`, `blob:`, `about:` and the like: nothing to fetch from a server. */
const SCHEME_RE = /^[a-z][a-z\d+.-]*:/i;
/** A URL that loads nothing: valid everywhere `url()` is, so the declaration stays well-formed. */
const EMPTY_URL = 'url("data:,")';

export interface LocalisedStylesheet {
  css: string;
  changed: boolean;
  warnings: BuildWarning[];
}

export interface StylesheetContext {
  /** Repository path → bundle URL (`/_assets/…`) of every asset that is not a custom stylesheet. */
  assetUrl: (repoPath: string) => string | undefined;
  /** Repository paths of the custom stylesheets (all loaded on every page). */
  stylesheets: ReadonlySet<string>;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const commentSafe = (text: string): string => text.replace(/\*\//g, '* /');

export function localiseStylesheet(file: string, source: string, ctx: StylesheetContext): LocalisedStylesheet {
  const warnings: BuildWarning[] = [];
  const warn = (code: string, message: string, text: string, index: number): void => {
    warnings.push({ code, message, file, line: lineAt(text, index) });
  };

  // @import first: its url() must not be rewritten as an ordinary one below.
  const withoutImports = source.replace(IMPORT_RE, (rule: string, dq?: string, sq?: string, bare?: string, index?: number) => {
    const ref = (dq ?? sq ?? bare ?? '').trim();
    const at = index ?? 0;
    const breaks = '\n'.repeat(rule.split('\n').length - 1);
    if (isOutsideBundle(ref)) {
      warn('external-style', `@import of ${ref} is removed: the exported site loads nothing from outside the bundle (copy the stylesheet into the repository instead)`, source, at);
      return `/* @import of ${commentSafe(ref)} removed by docs-appliance: outside the bundle */${breaks}`;
    }
    const target = SCHEME_RE.test(ref) ? undefined : toRepoPath(splitUrlSuffix(ref).path, file);
    if (target !== undefined && ctx.stylesheets.has(target)) {
      return `/* @import of ${commentSafe(ref)} removed by docs-appliance: every stylesheet of the repository is loaded on every page */${breaks}`;
    }
    return rule;
  });

  const css = withoutImports.replace(URL_RE, (whole: string, dq?: string, sq?: string, bare?: string, index?: number) => {
    const ref = (dq ?? sq ?? bare ?? '').trim();
    const at = index ?? 0;
    if (ref === '' || ref.startsWith('#')) return whole;
    if (isOutsideBundle(ref)) {
      warn('external-style', `url(${ref}) is replaced by an empty URL: the exported site loads nothing from outside the bundle (copy the file into the repository instead)`, withoutImports, at);
      return EMPTY_URL;
    }
    if (SCHEME_RE.test(ref)) return whole;
    const { path: target, suffix } = splitUrlSuffix(ref);
    const local = toRepoPath(target, file);
    const url = local === undefined ? undefined : ctx.assetUrl(local);
    if (url === undefined) {
      warn('missing-asset', `url(${ref}) is not a file of the repository; it will not load`, withoutImports, at);
      return whole;
    }
    return `url("${url}${suffix}")`;
  });
  // Removed @import rules keep their line breaks out of the comment, so lines still match the source.
  warnings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { css, changed: css !== source, warnings };
}
