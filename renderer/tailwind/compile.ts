/**
 * Tailwind's own compiler (v3, the release Mintlify's build pins), offline: the candidates go in as
 * raw content, nothing is read from disk and no repository config or plugin runs.
 *
 * Scoped so that it cannot restyle the theme: no preflight (Tailwind's reset), no `components`
 * layer (`container` would be a global rule), and every utility sits under the page's content
 * (`important` as a selector), so a class that happens to share a name with one of the theme's
 * own outside the content does nothing there. The id in that selector also lets a utility beat the
 * theme's prose rules (`.prose img`), as utilities beat Mintlify's. The base layer that remains
 * only declares Tailwind's `--tw-*` custom properties, which utilities such as `rotate-45` and
 * `shadow-md` read.
 *
 * The classes of a site's own scripts (`pageWide`) are compiled a second time under `body`: those
 * scripts insert banners and widgets anywhere in the page, as on the hosted site, whose stylesheet
 * carries the utilities everywhere. No theme class is a Tailwind utility name (a test keeps it so),
 * so this cannot restyle the theme either.
 */
import { createRequire } from 'node:module';
import type { TailwindInput } from './index.js';

const require = createRequire(import.meta.url);

/** Where authored content sits: the page body and the examples column beside it. */
export const CONTENT_SCOPE = ':is(#page-content,.examples-panel-inner)';
/** The theme toggles dark mode with `data-theme="dark"` on `<html>` (assets/client/theme-init.js). */
export const DARK_SELECTOR = '[data-theme="dark"]';
/** Where the site scripts' classes apply: anywhere in the page, still above the theme's rules. */
export const PAGE_SCOPE = ':is(body)';
/** The page background per theme (site.css `--color-bg`), Mintlify's `background-light/dark`. */
const BACKGROUND = { light: '#ffffff', dark: '#0c0e12' };

/**
 * The one piece of preflight a page needs: Tailwind's reset gives every element `border: 0 solid
 * <gray-200>`, so `border` alone (a width) draws a line. Without it the style stays `none` and
 * `rounded-xl border p-6` boxes had no border at all. Only elements with a border utility in the
 * content get it, at zero specificity (`:where`), so every utility and the theme's own rules win.
 */
const BORDER_BASE = `:where(#page-content,.examples-panel-inner) :where([class*="border"]) {\n    border-width: 0;\n    border-style: solid;\n    border-color: #e5e7eb\n}`;
const BORDER_CANDIDATE_RE = /(?:^|:)!?-?border(?:-[trblxyse])?(?:-\d+|-\[[^\]]+\])?$/;

type PostcssProcess = (css: string, opts: { from: undefined }) => PromiseLike<{ css: string }>;
type Postcss = (plugins: unknown[]) => { process: PostcssProcess };
type Tailwind = (config: unknown) => unknown;

let compiler: { postcss: Postcss; tailwind: Tailwind } | undefined;

/** Loaded on first use: only sites with classes pay for it (about half a second, once per process). */
function load(): { postcss: Postcss; tailwind: Tailwind } {
  compiler ??= { postcss: require('postcss') as Postcss, tailwind: require('tailwindcss') as Tailwind };
  return compiler;
}

/** Recent results by input: re-exporting an unchanged site (the usual case) skips the compiler. */
const recent = new Map<string, Promise<string>>();
const RECENT_LIMIT = 4;

export function compileTailwind(input: TailwindInput): Promise<string> {
  const key = JSON.stringify(input);
  let css = recent.get(key);
  if (!css) {
    css = compile(input);
    // A failure is not remembered: the next export tries again.
    css.catch(() => recent.delete(key));
    if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value as string);
    recent.set(key, css);
  }
  return css;
}

async function compile(input: TailwindInput): Promise<string> {
  const content = input.candidates.length === 0 ? '' : await run(input, input.candidates, CONTENT_SCOPE, '@tailwind base;\n@tailwind utilities;\n');
  const borders = input.candidates.some((c) => BORDER_CANDIDATE_RE.test(c)) ? `${BORDER_BASE}\n` : '';
  if (input.pageWide.length === 0) return borders + content;
  // The base layer (the `--tw-*` properties) is global: the content pass may already carry it.
  const base = input.candidates.length === 0 ? '@tailwind base;\n' : '';
  const page = await run(input, input.pageWide, PAGE_SCOPE, `${base}@tailwind utilities;\n`);
  return `${borders}${content}\n${pageBorderBase(input.pageWide)}${page}`;
}

/** BORDER_BASE for the script classes: only on elements carrying one of those border classes. */
function pageBorderBase(classes: readonly string[]): string {
  const plain = classes.filter((c) => BORDER_CANDIDATE_RE.test(c) && /^[a-z\d-]+$/.test(c));
  if (plain.length === 0) return '';
  return `:where(${plain.map((c) => `.${c}`).join(',')}) {\n    border-width: 0;\n    border-style: solid;\n    border-color: #e5e7eb\n}\n`;
}

async function run(input: TailwindInput, candidates: readonly string[], scope: string, source: string): Promise<string> {
  const { postcss, tailwind } = load();
  const config = {
    content: [{ raw: candidates.join(' '), extension: 'html' }],
    darkMode: ['selector', DARK_SELECTOR],
    important: scope,
    corePlugins: { preflight: false },
    theme: {
      extend: {
        colors: {
          primary: { DEFAULT: input.colors.primary, light: input.colors.light, dark: input.colors.dark },
          background: BACKGROUND,
        },
      },
    },
  };
  // Tailwind prints advice about its `content` option ("No utility classes were detected") with
  // console.warn; the content here is ours, so that advice is noise on the export's output.
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return (await postcss([tailwind(config)]).process(source, { from: undefined })).css;
  } finally {
    console.warn = warn;
  }
}
