/**
 * Tailwind utilities for the classes a site uses. The plan collects candidates from the sources
 * (candidates.ts); this module names the stylesheet before rendering, so that pages can link it
 * while the compile (compile.ts, on a pool worker) runs beside them.
 */
import { createHash } from 'node:crypto';
import { brandColors } from '../layout/colors.js';
import type { BuildWarning, SiteConfig } from '../types.js';

export { collectCandidates, collectScriptClasses, isClassSource } from './candidates.js';

/** Key of the stylesheet in `ctx.themeAssets`; absent when the site uses no class. */
export const TAILWIND_ASSET = 'tailwind.css';

/**
 * Everything the generated CSS depends on besides the compiler's own settings (compile.ts): the
 * candidates, sorted, and the palette Mintlify's Tailwind config adds (`primary`, `background`).
 */
export interface TailwindInput {
  candidates: string[];
  /** Classes of the site's own scripts (`customJs`), styled anywhere in the page (compile.ts). */
  pageWide: string[];
  colors: { primary: string; light: string; dark: string };
}

/**
 * Bumped with any change to compile.ts that changes its output for the same input: the file name
 * is a hash of the input and this, known before compiling, and so must change whenever the bytes
 * can (the appliance serves `_static/` as immutable).
 */
const RECIPE = 'tailwindcss@3.4.17/recipe-3';

export interface TailwindPlan {
  input: TailwindInput;
  /** `_static/tailwind.<hash>.css`, no leading slash. */
  bundlePath: string;
}

export function planTailwind(
  candidates: ReadonlySet<string>,
  colors: SiteConfig['colors'],
  pageWide: ReadonlySet<string> = new Set(),
): TailwindPlan | undefined {
  if (candidates.size === 0 && pageWide.size === 0) return undefined;
  const input: TailwindInput = { candidates: [...candidates].sort(), pageWide: [...pageWide].sort(), colors: brandColors(colors) };
  const hash = createHash('sha256').update(RECIPE).update('\0').update(JSON.stringify(input)).digest('hex').slice(0, 10);
  return { input, bundlePath: `_static/tailwind.${hash}.css` };
}

/** What the pool offers (render-pool.ts); without a worker method the compile runs here. */
interface TailwindCompiler {
  compileTailwind?(input: TailwindInput, options?: { signal?: AbortSignal }): Promise<string>;
}

/**
 * Start compiling; never rejects. A compiler failure is a warning and an empty stylesheet (pages
 * already link it, so the file must exist): the site still builds, unstyled by Tailwind.
 */
export function startTailwind(
  plan: TailwindPlan,
  pool: TailwindCompiler,
  signal: AbortSignal | undefined,
  configFile: string,
): Promise<{ css: string; ms: number; warning?: BuildWarning }> {
  const t0 = performance.now();
  const run = pool.compileTailwind
    ? pool.compileTailwind(plan.input, signal ? { signal } : {})
    : import('./compile.js').then((m) => m.compileTailwind(plan.input));
  return run.then(
    (css) => ({ css, ms: performance.now() - t0 }),
    (err: unknown) => ({
      css: '/* Tailwind could not compile this site\'s classes; see the export warnings. */\n',
      ms: performance.now() - t0,
      warning: {
        code: 'tailwind-failed',
        message: `Tailwind CSS could not be generated (${err instanceof Error ? err.message : String(err)}); utility classes are left unstyled`,
        file: configFile,
      },
    }),
  );
}
