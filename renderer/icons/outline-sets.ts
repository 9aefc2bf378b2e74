/**
 * Lucide (lucide-static) and Tabler (@tabler/icons): one SVG file per icon, read on first use.
 *
 * Lucide 1.0 removed 19 icons, mostly brands (`github`, `slack`, `twitter`…) that Mintlify sites
 * still use on Lucide (Mintlify's own docs do, beside icons only 1.x has): those are kept in
 * lucide-v0/, copied from lucide-static 0.577.0 (ISC, licence beside them), and looked up second.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageRoot } from '../theme/package-root.js';
import { readSvgFile, type IconShape } from './svg-file.js';

const require = createRequire(import.meta.url);
const packageDir = (name: string): string => path.dirname(require.resolve(`${name}/package.json`));

let lucideDir: string | undefined;
let lucideV0Dir: string | undefined;
let tablerDir: string | undefined;

const NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** `ArrowRight` (the React component name) → `arrow-right`; kebab names pass through. */
function kebab(raw: string): string {
  const name = raw.trim();
  if (!/[A-Z]/.test(name) || name.includes('-')) return name.toLowerCase();
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Za-z])([0-9])/g, '$1-$2')
    .toLowerCase();
}

export function lucideShape(raw: string): { name: string; shape: IconShape } | undefined {
  const name = kebab(raw).replace(/^lucide-/, '');
  if (!NAME_RE.test(name)) return undefined;
  lucideDir ??= path.join(packageDir('lucide-static'), 'icons');
  // From the source tree also when running from dist/ (the build copies no SVG files).
  lucideV0Dir ??= path.join(packageRoot(), 'renderer', 'icons', 'lucide-v0');
  // From a React name the dash before digits is a guess (`Grid3x3` is `grid-3x3`, `Hash` no digit).
  const names = /-\d/.test(name) ? [name, name.replace(/-(\d)/g, '$1')] : [name];
  let shape: IconShape | null = null;
  for (const dir of [lucideDir, lucideV0Dir]) {
    for (const n of names) shape ??= readSvgFile(path.join(dir, `${n}.svg`));
  }
  return shape ? { name, shape } : undefined;
}

/** `home`, `home-filled`, `ti ti-home`, `icon-tabler-home`; `iconType="filled"` asks for the filled style. */
export function tablerShape(raw: string, iconType: string | undefined): { name: string; shape: IconShape } | undefined {
  const words = raw.trim().split(/\s+/).filter((w) => w !== 'ti');
  let name = kebab(words[words.length - 1] ?? '').replace(/^(?:icon-tabler-|tabler-|ti-)/, '');
  let filled = iconType?.toLowerCase() === 'filled';
  if (name.endsWith('-filled')) {
    name = name.slice(0, -'-filled'.length);
    filled = true;
  }
  if (!NAME_RE.test(name)) return undefined;
  tablerDir ??= path.join(packageDir('@tabler/icons'), 'icons');
  const order = filled ? ['filled', 'outline'] : ['outline', 'filled'];
  for (const style of order) {
    const shape = readSvgFile(path.join(tablerDir, style, `${name}.svg`));
    if (shape) return { name, shape };
  }
  return undefined;
}
