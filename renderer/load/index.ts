import fs from 'node:fs';
import path from 'node:path';
import { RenderError, type SiteConfig } from '../types.js';
import { isObject } from './config-fields.js';
import { normaliseDocsJson } from './normalise-docs-json.js';
import { normaliseMintJson } from './normalise-mint-json.js';
import { parseJsonFile } from './parse-json.js';
import { resolveRefs } from './resolve-refs.js';
import { scanRepoFiles } from './scan-files.js';

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
}

/** Folders whose scripts and styles are sources for something else, never loaded by the site. */
const NOT_CUSTOM_ASSET = /^(?:snippets|_snippets)\//;

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
  const configFile = ['docs.json', 'mint.json'].find((f) => fs.existsSync(path.join(repoRoot, f)));
  if (configFile === undefined) {
    throw new RenderError('no docs.json (or legacy mint.json) at the root of the docs directory', { file: 'docs.json' });
  }
  const parsed = parseJsonFile(fs.readFileSync(path.join(repoRoot, configFile), 'utf8'), configFile);
  const raw = resolveRefs(parsed, configFile, repoRoot);
  if (!isObject(raw)) throw new RenderError('the config must be a JSON object', { file: configFile, line: 1 });

  const base = configFile === 'docs.json' ? normaliseDocsJson(raw, configFile) : normaliseMintJson(raw, configFile);
  const { files, symlinks } = scanRepoFiles(repoRoot);
  const custom = files.filter((f) => !NOT_CUSTOM_ASSET.test(f));
  const config: SiteConfig = {
    ...base,
    customCss: custom.filter((f) => f.endsWith('.css')),
    customJs: custom.filter((f) => f.endsWith('.js')),
  };
  return { repoRoot, configFile, config, files, symlinks };
}
