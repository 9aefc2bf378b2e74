import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root.js';

/** One static file of the site chrome, written by the write stage at `bundlePath`. */
export interface ThemeAsset {
  /** Stable key (`site.css`, `katex/fonts/KaTeX_Main-Regular.woff2`) used in `ctx.themeAssets`. */
  name: string;
  /** Content-hashed path inside the bundle, no leading slash: `_static/site.3f2a9c1b.css`. */
  bundlePath: string;
  bytes: Uint8Array;
}

/** Names the layout refers to; the write stage maps each to `'/' + bundlePath`. */
export const THEME_ASSET_NAMES = {
  siteCss: 'site.css',
  siteJs: 'site.js',
  searchJs: 'search.js',
  pageViewJs: 'page-view.js',
  feedbackJs: 'feedback.js',
  feedbackCss: 'feedback.css',
  contextualJs: 'contextual.js',
  contextualCss: 'contextual.css',
  themeInitJs: 'theme-init.js',
  componentsCss: 'components.css',
  componentsJs: 'components.js',
  minisearchJs: 'minisearch.js',
  katexCss: 'katex.css',
  mermaidJs: 'mermaid.js',
  assistantJs: 'assistant.js',
  assistantCss: 'assistant.css',
  playgroundJs: 'playground.js',
  playgroundCss: 'playground.css',
} as const;

let cache: ThemeAsset[] | undefined;

export function contentHash(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 10);
}

function hashedPath(dir: string, fileName: string, bytes: Uint8Array): string {
  const ext = path.extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  return `${dir}/${stem}.${contentHash(bytes)}${ext}`;
}

function readRequired(file: string, what: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new Error(`theme asset ${what} missing at ${file}: ${(err as Error).message}`, { cause: err });
  }
}

function asset(name: string, file: string, bundleFileName = path.basename(file), prefix?: Buffer): ThemeAsset {
  const own = readRequired(file, name);
  const bytes = prefix ? Buffer.concat([prefix, Buffer.from('\n'), own]) : own;
  return { name, bundlePath: hashedPath('_static', bundleFileName, bytes), bytes: new Uint8Array(bytes) };
}

/** The client scripts that show words: each is served with words.js in front of it. */
const WORDED_SCRIPTS = ['site.js', 'search.js', 'feedback.js', 'contextual.js', 'components.js', 'assistant.js', 'playground.js'];

/** A client script as the bundle serves it (words.js in front where it shows words): for tests that run one. */
export function clientScriptSource(fileName: string): string {
  const client = path.join(packageRoot(), 'renderer', 'assets', 'client');
  const words = WORDED_SCRIPTS.includes(fileName) ? readRequired(path.join(client, 'words.js'), 'words.js') : undefined;
  return Buffer.from(asset(fileName, path.join(client, fileName), fileName, words).bytes).toString('utf8');
}

/**
 * KaTeX's stylesheet points at fonts/ next to it in three formats. Only woff2 is kept (every
 * browser that runs the rest of the site reads it), which cuts the fonts from 1.2 MB to 0.3 MB,
 * and each URL is rewritten to the font's hashed bundle path.
 */
function katexAssets(katexDist: string): ThemeAsset[] {
  let css = readRequired(path.join(katexDist, 'katex.min.css'), 'katex.css').toString('utf8');
  css = css.replace(/,\s*url\(fonts\/[^)]+\.(?:woff|ttf)\)\s*format\("(?:woff|truetype)"\)/g, '');
  const fonts = new Map<string, ThemeAsset>();
  css = css.replace(/url\(fonts\/([^)]+\.woff2)\)/g, (_m, fileName: string) => {
    let font = fonts.get(fileName);
    if (!font) {
      const bytes = readRequired(path.join(katexDist, 'fonts', fileName), `katex font ${fileName}`);
      font = {
        name: `katex/fonts/${fileName}`,
        bundlePath: hashedPath('_static/katex', fileName, bytes),
        bytes: new Uint8Array(bytes),
      };
      fonts.set(fileName, font);
    }
    // Absolute path: the stylesheet and fonts sit in different folders, and pages at any depth use them.
    return `url(/${font.bundlePath})`;
  });
  if (/url\((?!\/_static\/)/.test(css)) {
    throw new Error('katex.min.css references a font this build does not bundle; update renderer/theme/assets.ts');
  }
  const cssBytes = new Uint8Array(Buffer.from(css, 'utf8'));
  return [
    { name: THEME_ASSET_NAMES.katexCss, bundlePath: hashedPath('_static', 'katex.css', cssBytes), bytes: cssBytes },
    ...fonts.values(),
  ];
}

/**
 * Every static file the exported site needs besides the customer's own assets, read once per
 * process (workers and the write stage each call this; the files do not change while running).
 */
export function loadThemeAssets(): ThemeAsset[] {
  if (cache) return cache;
  const root = packageRoot();
  const client = path.join(root, 'renderer', 'assets', 'client');
  const modules = path.join(root, 'node_modules');
  const words = readRequired(path.join(client, 'words.js'), 'words.js');
  const script = (name: string) => asset(name, path.join(client, name), name, WORDED_SCRIPTS.includes(name) ? words : undefined);
  const list: ThemeAsset[] = [
    asset(THEME_ASSET_NAMES.siteCss, path.join(client, 'site.css')),
    script(THEME_ASSET_NAMES.siteJs),
    script(THEME_ASSET_NAMES.searchJs),
    asset(THEME_ASSET_NAMES.pageViewJs, path.join(client, 'page-view.js')),
    script(THEME_ASSET_NAMES.feedbackJs),
    asset(THEME_ASSET_NAMES.feedbackCss, path.join(client, 'feedback.css')),
    script(THEME_ASSET_NAMES.contextualJs),
    asset(THEME_ASSET_NAMES.contextualCss, path.join(client, 'contextual.css')),
    asset(THEME_ASSET_NAMES.themeInitJs, path.join(client, 'theme-init.js')),
    asset(THEME_ASSET_NAMES.componentsCss, path.join(client, 'components.css')),
    script(THEME_ASSET_NAMES.componentsJs),
    script(THEME_ASSET_NAMES.assistantJs),
    asset(THEME_ASSET_NAMES.assistantCss, path.join(client, 'assistant.css')),
    asset(THEME_ASSET_NAMES.minisearchJs, path.join(modules, 'minisearch', 'dist', 'umd', 'index.js'), 'minisearch.js'),
    script(THEME_ASSET_NAMES.playgroundJs),
    asset(THEME_ASSET_NAMES.playgroundCss, path.join(client, 'playground.css')),
    asset(THEME_ASSET_NAMES.mermaidJs, path.join(modules, 'mermaid', 'dist', 'mermaid.min.js'), 'mermaid.js'),
    ...katexAssets(path.join(modules, 'katex', 'dist')),
  ];
  cache = list;
  return list;
}

let urlCache: Record<string, string> | undefined;

/** name → `/bundlePath`, the same map the write stage builds into `ctx.themeAssets`. */
export function themeAssetUrls(): Record<string, string> {
  if (urlCache) return urlCache;
  const urls: Record<string, string> = {};
  for (const a of loadThemeAssets()) urls[a.name] = '/' + a.bundlePath;
  urlCache = urls;
  return urls;
}
