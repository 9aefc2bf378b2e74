import fs from 'node:fs';
import path from 'node:path';
import { collectCandidates, isClassSource } from '../tailwind/index.js';
import { isPageFile } from './slugs.js';

/**
 * The plan's class scan: pages as the plan reads them anyway (page-meta), then the other sources
 * (snippets, component scripts). A repository's own site scripts (`customJs`, loaded on every
 * page: analytics, widgets) are left out: they are often minified bundles whose strings are not
 * classes of the documentation.
 */
export function classCandidates(repoRoot: string): {
  candidates: Set<string>;
  addPage(file: string, text: string): void;
  addOtherSources(files: readonly string[], customJs: readonly string[]): void;
} {
  const candidates = new Set<string>();
  return {
    candidates,
    addPage: (file, text) => collectCandidates(file, text, candidates),
    addOtherSources(files, customJs) {
      const scripts = new Set(customJs);
      for (const file of files) {
        if (isPageFile(file) || scripts.has(file) || !isClassSource(file)) continue;
        let text: string;
        try {
          text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
        } catch {
          continue;
        }
        collectCandidates(file, text, candidates);
      }
    },
  };
}
