import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of a fixture site under test/fixtures/sites/. */
export function fixtureSite(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/sites/${name}`, import.meta.url));
}

/** A throw-away directory with the given files (path → content); returns its root. */
export function tempSite(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-site-'));
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  return root;
}
