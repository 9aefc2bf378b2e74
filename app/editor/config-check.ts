import { findNodeAtLocation, parseTree, type JSONPath } from 'jsonc-parser';
import { isObject } from '../../renderer/load/config-fields.js';
import { normaliseDocsJson } from '../../renderer/load/normalise-docs-json.js';
import { normaliseMintJson } from '../../renderer/load/normalise-mint-json.js';
import { lineColumnAt, parseJsonFile } from '../../renderer/load/parse-json.js';
import { resolveRefs } from '../../renderer/load/resolve-refs.js';
import { RenderError } from '../../renderer/types.js';
import { errors } from '../errors.js';

/** The site configs the export loads from the docs root (renderer/load/index.ts loadSite). */
export const CONFIG_FILES: ReadonlySet<string> = new Set(['docs.json', 'mint.json']);

/** `"redirects[0]" needs …` / `"footer.socials" must …` → the JSON path the message names. */
function pathInMessage(message: string): JSONPath | undefined {
  const m = /^"([A-Za-z0-9_$.[\]-]+)"/.exec(message);
  if (!m) return undefined;
  const out: JSONPath = [];
  for (const part of m[1]!.split('.')) {
    const seg = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (!seg) return undefined;
    out.push(seg[1]!);
    for (const idx of seg[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/**
 * Refuse a docs.json / mint.json the export would refuse: the same parse, `$ref` inlining and
 * normalisation as loadSite, run on the text about to be saved (docs/editor.md "Navigation editor").
 * A setting's error carries no line from the renderer, so the line of the setting it names is found here.
 */
export function checkSiteConfig(rel: string, content: string, docsRoot: string): void {
  try {
    const raw = resolveRefs(parseJsonFile(content, rel), rel, docsRoot);
    if (!isObject(raw)) throw new RenderError('the config must be a JSON object', { file: rel, line: 1 });
    if (rel === 'docs.json') normaliseDocsJson(raw, rel);
    else normaliseMintJson(raw, rel);
  } catch (err) {
    if (!(err instanceof RenderError)) throw err;
    let { line, column } = err;
    if (line === undefined) {
      const at = pathInMessage(err.message);
      const tree = at ? parseTree(content) : undefined;
      const node = tree && at ? findNodeAtLocation(tree, at) : undefined;
      if (node) ({ line, column } = lineColumnAt(content, node.offset));
    }
    throw errors.editorConfigInvalid(err.file, err.message, line, column);
  }
}
