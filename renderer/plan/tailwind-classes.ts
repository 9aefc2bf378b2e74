import fs from 'node:fs';
import path from 'node:path';
import { collectCandidates, collectScriptClasses, isClassSource } from '../tailwind/index.js';
import { isPageFile } from './slugs.js';

/**
 * The plan's class scan: pages as the plan reads them anyway (page-meta), then the other sources
 * (snippets, component scripts). A repository's own site scripts (`customJs`, loaded on every
 * page: banners, widgets) insert markup anywhere in the page, outside the content too, so their
 * classes go to `pageWide` (styled wherever they appear); only what they put in a `class` counts,
 * since they are often minified bundles whose other strings are not classes.
 */
export function classCandidates(repoRoot: string): {
  candidates: Set<string>;
  pageWide: Set<string>;
  addPage(file: string, text: string): void;
  addOtherSources(files: readonly string[], customJs: readonly string[]): void;
} {
  const candidates = new Set<string>();
  const pageWide = new Set<string>();
  return {
    candidates,
    pageWide,
    addPage: (file, text) => collectCandidates(file, text, candidates),
    addOtherSources(files, customJs) {
      const scripts = new Set(customJs);
      for (const file of files) {
        const script = scripts.has(file);
        if (!script && (isPageFile(file) || !isClassSource(file))) continue;
        let text: string;
        try {
          text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
        } catch {
          continue;
        }
        if (script) collectScriptClasses(text, pageWide);
        else collectCandidates(file, text, candidates);
      }
    },
  };
}
