import fs from 'node:fs';
import path from 'node:path';
import { RenderError, type SiteConfig } from '../types.js';
import { isObject } from './config-fields.js';
import { DOCS_JSON_SETTINGS, normaliseDocsJson } from './normalise-docs-json.js';
import { MINT_JSON_SETTINGS, normaliseMintJson } from './normalise-mint-json.js';
import { readerAnalyticsSettings } from './reader-analytics.js';
import { parseJsonFile } from './parse-json.js';
import { resolveRefs } from './resolve-refs.js';
import { scanRepoFiles } from './scan-files.js';
import { readRepoText } from '../repo-files.js';
import { MAX_CONFIG_BYTES } from './config-limits.js';

export { scanRepoFiles, DEFAULT_IGNORES } from './scan-files.js';
export { parseJsonFile } from './parse-json.js';
export { resolveRefs } from './resolve-refs.js';

export interface LoadedSite {
  repoRoot: string;
  /** `docs.json` or `mint.json`. */
  configFile: string;
  config: SiteConfig;
  /** Every usable file of the repository (ignores applied), sorted. */
  files: string[];
  /** Symbolic links left out of `files` (see scanRepoFiles); plan reports each as a warning. */
  symlinks?: string[];
  /** Top-level settings of the config that the renderer does not apply (Mintlify features it has not). */
  ignoredSettings?: string[];
}

/** Folders whose scripts and styles are sources for something else, never loaded by the site. */
const NOT_CUSTOM_ASSET = /^(?:snippets|_snippets)\//;

/**
 * Top-level settings the renderer does not read, and the unread parts of those it reads only in
 * part (`known` holds `styling.eyebrows` for those): `["seo", "styling.codeblocks"]`. `$schema`
 * and the like are for editors, not settings.
 */
function settingsNotApplied(raw: Record<string, unknown>, known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key.startsWith('$') || known.has(key)) continue;
    const partly = [...known].some((k) => k.startsWith(`${key}.`));
    if (!partly) out.push(key);
    else if (isObject(value)) for (const sub of Object.keys(value)) if (!known.has(`${key}.${sub}`)) out.push(`${key}.${sub}`);
  }
  return out.sort();
}

/**
 * Load a docs repository: find its config (docs.json first, then legacy mint.json), inline `$ref`s,
 * normalise it, and list the files the build may use. Every `.css`/`.js` file outside snippets is
 * a custom stylesheet/script, as on Mintlify, which loads them all on every page.
 */
export function loadSite(sourceDir: string): LoadedSite {
  const repoRoot = path.resolve(sourceDir);
  if (!fs.existsSync(repoRoot) || !fs.statSync(repoRoot).isDirectory()) {
    throw new RenderError('docs directory not found', { file: sourceDir });
  }
  // lstat: a link named docs.json is found here and then refused by name by readRepoText.
  const configFile = ['docs.json', 'mint.json'].find((f) => fs.lstatSync(path.join(repoRoot, f), { throwIfNoEntry: false }) !== undefined);
  if (configFile === undefined) {
    throw new RenderError('no docs.json (or legacy mint.json) at the root of the docs directory', { file: 'docs.json' });
  }
  const parsed = parseJsonFile(readRepoText(repoRoot, configFile, MAX_CONFIG_BYTES), configFile);
  const raw = resolveRefs(parsed, configFile, repoRoot);
  if (!isObject(raw)) throw new RenderError('the config must be a JSON object', { file: configFile, line: 1 });

  const base = configFile === 'docs.json' ? normaliseDocsJson(raw, configFile) : normaliseMintJson(raw, configFile);
  const { files, symlinks } = scanRepoFiles(repoRoot);
  const custom = files.filter((f) => !NOT_CUSTOM_ASSET.test(f));
  const config: SiteConfig = {
    ...base,
    customCss: custom.filter((f) => f.endsWith('.css')),
    customJs: custom.filter((f) => f.endsWith('.js')),
    readerAnalytics: readerAnalyticsSettings(raw, configFile as 'docs.json' | 'mint.json'),
  };
  const ignoredSettings = settingsNotApplied(raw, configFile === 'docs.json' ? DOCS_JSON_SETTINGS : MINT_JSON_SETTINGS);
  return { repoRoot, configFile, config, files, symlinks, ignoredSettings };
}
