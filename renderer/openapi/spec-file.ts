import { readRepoText } from '../repo-files.js';
import { MAX_SPEC_BYTES, parseSpecText } from './load-spec.js';

/** A file a `$ref` points at: read (confined) and parsed, or why not. */
export function loadSpecFile(repoRoot: string, file: string): { value: unknown } | { error: string } {
  let text: string;
  try {
    text = readRepoText(repoRoot, file, MAX_SPEC_BYTES);
  } catch {
    return { error: 'cannot be read (missing, too large or not a regular file)' };
  }
  const parsed = parseSpecText(text);
  return 'error' in parsed ? { error: `is neither JSON nor YAML (${parsed.error})` } : parsed;
}
