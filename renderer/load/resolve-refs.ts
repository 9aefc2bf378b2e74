import path from 'node:path';
import { RenderError } from '../types.js';
import { parseJsonFile } from './parse-json.js';
import { readRepoText, RepoFileError } from '../repo-files.js';
import { MAX_CONFIG_BYTES } from './config-limits.js';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Repository-relative POSIX path of an absolute path, or null when it lies outside the root. */
function insideRepo(repoRoot: string, abs: string): string | null {
  const rel = path.relative(repoRoot, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

/**
 * Inline every `{"$ref": "relative/file.json", ...siblings}` in a config value. A reference is
 * resolved against the file that contains it and must stay inside the repository (also after
 * following symlinks: the export must not read files the project does not own). Sibling keys are
 * merged over the referenced object, which is how Mintlify lets a shared fragment be specialised.
 * A reference chain that comes back to a file already on it is an error naming the chain.
 */
export function resolveRefs(value: unknown, file: string, repoRoot: string, chain: string[] = [file]): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, file, repoRoot, chain));
  if (!isPlainObject(value)) return value;

  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key !== '$ref') out[key] = resolveRefs(v, file, repoRoot, chain);
  }
  const ref = value['$ref'];
  if (ref === undefined) return out;
  if (typeof ref !== 'string' || ref.trim() === '') {
    throw new RenderError('"$ref" must be a non-empty relative file path', { file });
  }

  const target = loadRefTarget(ref, file, repoRoot, chain);
  const resolved = resolveRefs(target.value, target.file, repoRoot, [...chain, target.file]);
  if (Object.keys(out).length === 0) return resolved;
  if (!isPlainObject(resolved)) {
    throw new RenderError(`"$ref": "${ref}" points at a non-object, so its sibling keys cannot be merged`, { file });
  }
  return { ...resolved, ...out };
}

function loadRefTarget(ref: string, file: string, repoRoot: string, chain: string[]): { file: string; value: unknown } {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
    throw new RenderError(`"$ref": "${ref}" must be a file in the repository, not a URL`, { file });
  }
  const abs = path.resolve(repoRoot, path.posix.dirname(file), ref.startsWith('/') ? `.${ref}` : ref);
  const rel = insideRepo(repoRoot, abs);
  if (rel === null) throw new RenderError(`"$ref": "${ref}" points outside the repository`, { file });
  if (chain.includes(rel)) {
    throw new RenderError(`"$ref" cycle: ${[...chain, rel].join(' → ')}`, { file });
  }
  let text: string;
  try {
    text = readRepoText(repoRoot, rel, MAX_CONFIG_BYTES);
  } catch (err) {
    if (!(err instanceof RepoFileError)) throw err;
    const why = err.problem === 'missing' ? `not found (${rel})` : err.problem === 'outside' ? 'points outside the repository (through a link)' : err.message;
    throw new RenderError(`"$ref": "${ref}" ${why}`, { file });
  }
  return { file: rel, value: parseJsonFile(text, rel) };
}
