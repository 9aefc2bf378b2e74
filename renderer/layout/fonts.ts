import { toRepoPath } from '../repo-paths.js';
import type { FontSpec, SiteConfig } from '../types.js';

/**
 * docs.json `fonts` as CSS for the page's inline brand style: an `@font-face` for each font whose
 * `source` is a file of the repository (served from the bundle under its hashed name), and the
 * families as `--font-sans` (body) and `--font-heading`. A family whose source is elsewhere (or
 * none) is still named: it applies where the reader has it installed, the theme's fonts otherwise;
 * plan reports the source that cannot load.
 */

/** Family names reach CSS inside double quotes: letters, digits, spaces and a few marks only. */
const FAMILY_RE = /^[\p{L}\p{N} _.'-]{1,100}$/u;
const FORMATS: Record<string, string> = { woff2: 'woff2', woff: 'woff', ttf: 'truetype', truetype: 'truetype', otf: 'opentype', opentype: 'opentype' };

function fontFormat(spec: FontSpec, url: string): string | undefined {
  const declared = spec.format?.toLowerCase();
  if (declared && FORMATS[declared]) return FORMATS[declared];
  const ext = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  return ext ? FORMATS[ext] : undefined;
}

function fontFace(spec: FontSpec, assetUrl: (repoPath: string) => string | undefined): string {
  if (!spec.source) return '';
  const local = toRepoPath(spec.source, 'docs.json');
  const url = local === undefined ? undefined : assetUrl(local);
  if (!url) return '';
  const format = fontFormat(spec, url);
  const weight = spec.weight === undefined ? '' : `;font-weight:${spec.weight}`;
  return `@font-face{font-family:"${spec.family}";src:url("${url}")${format ? ` format("${format}")` : ''}${weight};font-display:swap}`;
}

export function fontCss(fonts: SiteConfig['fonts'], assetUrl: (repoPath: string) => string | undefined): string {
  if (!fonts) return '';
  const body = fonts.body && FAMILY_RE.test(fonts.body.family) ? fonts.body : undefined;
  const heading = fonts.heading && FAMILY_RE.test(fonts.heading.family) ? fonts.heading : undefined;
  const faces = new Set([body, heading].filter((s): s is FontSpec => s !== undefined).map((s) => fontFace(s, assetUrl)));
  const vars: string[] = [];
  if (body) vars.push(`--font-sans:"${body.family}",var(--font-system)`);
  if (heading) vars.push(`--font-heading:"${heading.family}",var(--font-sans)`);
  return `${[...faces].join('')}${vars.length > 0 ? `:root{${vars.join(';')}}` : ''}`;
}
