/**
 * Font Awesome icons as inline SVG, read from the installed @fortawesome/fontawesome-free package
 * at build time, so an exported site never loads an icon font or a remote icon. Names that exist
 * only in Font Awesome Pro are recognised from @fortawesome/fontawesome-common-types, whose
 * `IconName` type lists every icon of every Font Awesome package.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readSvgFile, type IconShape } from './svg-file.js';

const require = createRequire(import.meta.url);

/** Where the package keeps one SVG file per icon and style (aliases have their own files too). */
const svgRoot = path.join(path.dirname(require.resolve('@fortawesome/fontawesome-free/package.json')), 'svgs');

const STYLES = ['solid', 'regular', 'brands'] as const;
type Style = (typeof STYLES)[number];

/** Words Mintlify and Font Awesome accept as a style; styles the free package lacks fall back to solid. */
const STYLE_WORDS: Record<string, Style> = {
  solid: 'solid',
  fas: 'solid',
  regular: 'regular',
  far: 'regular',
  brands: 'brands',
  brand: 'brands',
  fab: 'brands',
  light: 'solid',
  fal: 'solid',
  thin: 'solid',
  fat: 'solid',
  duotone: 'solid',
  fad: 'solid',
  sharp: 'solid',
  'sharp-solid': 'solid',
  classic: 'solid',
};

const NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Splits `fa-solid fa-rocket`, `brands github`, `rocket` into a style preference and a name. */
export function parseFaName(raw: string, iconType: string | undefined): { style?: Style; name: string } | undefined {
  let style: Style | undefined = iconType ? STYLE_WORDS[iconType.toLowerCase()] : undefined;
  let name: string | undefined;
  for (const word of raw.trim().toLowerCase().split(/\s+/)) {
    const bare = word.startsWith('fa-') ? word.slice(3) : word;
    const asStyle = STYLE_WORDS[bare] ?? STYLE_WORDS[word];
    if (asStyle && (name !== undefined || raw.trim().includes(' '))) {
      style = asStyle;
      continue;
    }
    name = bare;
  }
  if (!name || !NAME_RE.test(name)) return undefined;
  return style ? { style, name } : { name };
}

/** The free set's shape for a name, in the asked style first, then any other style. */
export function faShape(name: string, iconType: string | undefined): { name: string; shape: IconShape } | undefined {
  const parsed = parseFaName(name, iconType);
  if (!parsed) return undefined;
  const order: Style[] = parsed.style ? [parsed.style, ...STYLES.filter((s) => s !== parsed.style)] : [...STYLES];
  for (const style of order) {
    const shape = readSvgFile(path.join(svgRoot, style, `${parsed.name}.svg`));
    if (shape) return { name: parsed.name, shape };
  }
  return undefined;
}

let allNames: Set<string> | undefined;

/** Every Font Awesome icon name, Pro included (about 5,400), read once per process. */
function everyName(): Set<string> {
  if (!allNames) {
    allNames = new Set();
    try {
      const types = fs.readFileSync(require.resolve('@fortawesome/fontawesome-common-types/index.d.ts'), 'utf8');
      const start = types.indexOf('export type IconName');
      const end = types.indexOf(';', start);
      if (start >= 0) for (const m of types.slice(start, end).matchAll(/'([^']+)'/g)) allNames.add(m[1] as string);
    } catch {
      // Without the list every unknown name is simply unknown.
    }
  }
  return allNames;
}

/** A name Font Awesome has, though not in the free set bundled here (its caller checked that). */
export function isProOnlyName(name: string): boolean {
  const parsed = parseFaName(name, undefined);
  return parsed !== undefined && everyName().has(parsed.name);
}
