import jsYaml from 'js-yaml';
import { specFragment, type FragmentRef } from '../openapi/spec-fragment.js';
import { docWithoutGroups } from '../openapi/without-groups.js';
import type { ApiPageData } from '../openapi/types.js';
import { nestedYamlOf, newYamlMemo, yamlOf, type YamlMemo } from './yaml-block.js';

type Json = Record<string, unknown>;

/**
 * YAML already written for a document, by part: its head, each component, each kind's key. Pages of
 * one spec share most of their components (an `Error` schema, a pagination envelope). The keys
 * written so far are kept beside them (yaml-block.ts).
 */
interface Written {
  parts: Map<string, string>;
  yaml: YamlMemo;
}
const written = new WeakMap<Json, Written>();

/** Components sit two mappings deep (`components:` › kind). */
const COMPONENT_LEVEL = 2;

function memoFor(doc: Json): Written {
  let memo = written.get(doc);
  if (!memo) written.set(doc, (memo = { parts: new Map(), yaml: newYamlMemo() }));
  return memo;
}

function once(memo: Map<string, string>, key: string, make: () => string): string {
  let text = memo.get(key);
  if (text === undefined) memo.set(key, (text = make()));
  return text;
}

/**
 * The YAML of the operation's part of `doc`: exactly what js-yaml writes for the whole fragment
 * (a test compares them), assembled from parts written once per document where it can be.
 */
export function fragmentYaml(doc: Json, ref: FragmentRef): string | undefined {
  const f = specFragment(doc, ref);
  if (!f) return undefined;
  const { parts, yaml: keys } = memoFor(doc);
  let yaml = once(parts, '\0head', () => yamlOf(f.head, keys)) + yamlOf({ [f.group]: { [f.key]: f.pathItem } }, keys);
  if (f.components.length > 0) {
    const all = doc['components'] as Record<string, Json>;
    yaml += 'components:\n';
    for (const { kind, names } of f.components) {
      yaml += once(parts, `\0kind\0${kind}`, () => `  ${jsYaml.dump(kind).trimEnd()}:\n`);
      for (const name of names) yaml += once(parts, `${kind}\0${name}`, () => nestedYamlOf({ [name]: all[kind]?.[name] }, COMPONENT_LEVEL, keys));
    }
  }
  return yaml;
}

/**
 * The "OpenAPI" part of an API page's Markdown, as the hosted platform writes it: the operation's
 * part of its spec as YAML, in a fence labelled with the page's `openapi` reference. js-yaml is the
 * serialiser whose style the hosted output has (`'200':`, folded `>-` descriptions), and three
 * times faster than `yaml` on these documents (docs/api-reference.md, "Markdown of API pages").
 */
export function apiMarkdownSection(api: ApiPageData | undefined, docs: Readonly<Record<string, Json>> | undefined, readerAccess = false): string | undefined {
  const ref = api?.kind === 'operation' ? api.operation.specFragment : undefined;
  const raw = ref ? docs?.[ref.file] : undefined;
  if (!ref || !raw) return undefined;
  // x-mint-enum / x-mint.groups never printed; with reader access, what they restrict left out.
  const doc = docWithoutGroups(raw, readerAccess);
  let yaml: string | undefined;
  try {
    yaml = fragmentYaml(doc, ref);
  } catch {
    // Nothing a parsed JSON or YAML document holds should get here; the page keeps its text then.
    return undefined;
  }
  if (yaml === undefined) return undefined;
  // A fence longer than any run of backticks in the YAML (a description quoting a code fence).
  const longest = Math.max(3, ...Array.from(yaml.matchAll(/`{3,}/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `## OpenAPI\n\n${fence}yaml ${ref.label}\n${yaml}\n${fence}`;
}
