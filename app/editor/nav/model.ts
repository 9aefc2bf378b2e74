/**
 * The navigation of a docs.json as a tree, and the edits the navigation panel makes to it
 * (docs/editor.md "Navigation editor"). Plain TS with no Node imports: it runs in the browser
 * (app/editor/client/nav-panel.ts) and in the unit tests.
 *
 * Every operation works on the file's text with jsonc-parser's `modify`: only the array elements
 * or keys that change are rewritten, so every other key, its order, the indentation and the
 * comments stay byte-identical.
 */
import { applyEdits, modify, parse, type FormattingOptions, type JSONPath } from 'jsonc-parser';

export type NavKind = 'tab' | 'anchor' | 'language' | 'version' | 'dropdown' | 'product' | 'group' | 'page';

export interface NavNode {
  kind: NavKind;
  /** What the panel shows: the tab's or group's name, the page's path. */
  label: string;
  /** Where the node is in the file (from the top: ["navigation", "tabs", 0, "groups", 1]). */
  path: JSONPath;
  children: NavNode[];
}

/** Keys of a navigation level that hold a list of sub-levels, and the key naming each entry. */
const LEVELS: { key: string; kind: NavKind; name: string }[] = [
  { key: 'languages', kind: 'language', name: 'language' },
  { key: 'versions', kind: 'version', name: 'version' },
  { key: 'products', kind: 'product', name: 'product' },
  { key: 'dropdowns', kind: 'dropdown', name: 'dropdown' },
  { key: 'anchors', kind: 'anchor', name: 'anchor' },
  { key: 'tabs', kind: 'tab', name: 'tab' },
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function pagesOf(list: unknown, at: JSONPath): NavNode[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, i): NavNode[] => {
    const path = [...at, i];
    if (typeof item === 'string') return [{ kind: 'page', label: item, path, children: [] }];
    if (isObject(item) && typeof item.group === 'string') return [groupOf(item, path)];
    return [];
  });
}

function groupOf(g: Record<string, unknown>, path: JSONPath): NavNode {
  return { kind: 'group', label: String(g.group), path, children: pagesOf(g.pages, [...path, 'pages']) };
}

/** The sub-levels, groups and pages of one navigation level (the root or a tab, anchor, …). */
function levelChildren(level: Record<string, unknown>, at: JSONPath): NavNode[] {
  const out: NavNode[] = [];
  for (const { key, kind, name } of LEVELS) {
    const list = level[key];
    if (!Array.isArray(list)) continue;
    list.forEach((item, i) => {
      if (!isObject(item)) return;
      const path = [...at, key, i];
      out.push({ kind, label: String(item[name] ?? item.name ?? `${kind} ${i + 1}`), path, children: levelChildren(item, path) });
    });
  }
  if (Array.isArray(level.groups)) {
    level.groups.forEach((g, i) => {
      if (isObject(g)) out.push(groupOf(g, [...at, 'groups', i]));
    });
  }
  out.push(...pagesOf(level.pages, [...at, 'pages']));
  return out;
}

/** The navigation tree of a docs.json's text (comments allowed); [] when it has none. */
export function readNavigation(text: string): NavNode[] {
  const doc = parse(text, [], { allowTrailingComma: true }) as unknown;
  if (!isObject(doc) || !isObject(doc.navigation)) return [];
  return levelChildren(doc.navigation, ['navigation']);
}

/** Every page reference in the tree, for "add page" to offer only what is not listed yet. */
export function pagesIn(nodes: NavNode[]): string[] {
  return nodes.flatMap((n) => (n.kind === 'page' ? [n.label] : pagesIn(n.children)));
}

/** The node at `path`, if any. */
export function nodeAt(nodes: NavNode[], path: JSONPath): NavNode | undefined {
  for (const n of nodes) {
    if (samePath(n.path, path)) return n;
    const inner = nodeAt(n.children, path);
    if (inner) return inner;
  }
  return undefined;
}

export const samePath = (a: JSONPath, b: JSONPath): boolean => a.length === b.length && a.every((s, i) => s === b[i]);

/** The file's own indentation and line ends, so an inserted element looks like its neighbours. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]!);
  if (indents.some((s) => s.startsWith('\t'))) return { insertSpaces: false, tabSize: 1, eol };
  const sizes = indents.map((s) => s.length).filter((n) => n > 0);
  return { insertSpaces: true, tabSize: sizes.length ? Math.min(...sizes) : 2, eol };
}

const valueAt = (text: string, path: JSONPath): unknown => {
  let v: unknown = parse(text, [], { allowTrailingComma: true });
  for (const seg of path) v = (v as Record<string | number, unknown> | undefined)?.[seg];
  return v;
};

function edit(text: string, path: JSONPath, value: unknown, insert = false): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: formattingOf(text), ...(insert ? { isArrayInsertion: true } : {}) }));
}

/** Append `value` to the array at `arrayPath`, creating the array when the key is absent. */
function append(text: string, arrayPath: JSONPath, value: unknown): string {
  const list = valueAt(text, arrayPath);
  if (list === undefined) return edit(text, arrayPath, [value]);
  if (!Array.isArray(list)) throw new NavEditError(`${arrayPath.join('.')} is not a list`);
  return edit(text, [...arrayPath, list.length], value, true);
}

export class NavEditError extends Error {}

const parentOf = (path: JSONPath): { array: JSONPath; index: number } => {
  const index = path[path.length - 1];
  if (typeof index !== 'number') throw new NavEditError('not an element of a list');
  return { array: path.slice(0, -1), index };
};

/** Add a group named `name` at the end of a level's `groups` (a tab, anchor, … or the root) or of a group's `pages` (a nested group). */
export function addGroup(text: string, parent: JSONPath, name: string): string {
  const p = valueAt(text, parent);
  if (!isObject(p)) throw new NavEditError('no such place in the navigation');
  return append(text, [...parent, typeof p.group === 'string' ? 'pages' : 'groups'], { group: name, pages: [] });
}

/** Add a tab at the end of the navigation's top-level `tabs`. */
export function addTab(text: string, name: string): string {
  return append(text, ['navigation', 'tabs'], { tab: name, groups: [] });
}

/** Rename a group (or a tab, anchor, …: the key that names it). */
export function rename(text: string, path: JSONPath, name: string): string {
  const v = valueAt(text, path);
  if (!isObject(v)) throw new NavEditError('only a group or a tab can be renamed');
  const key = ['group', ...LEVELS.map((l) => l.name)].find((k) => typeof v[k] === 'string');
  if (!key) throw new NavEditError('this entry has no name to change');
  return edit(text, [...path, key], name);
}

/** Add a page reference (`guides/intro`, no extension) at the end of a group's pages. */
export function addPage(text: string, group: JSONPath, page: string): string {
  const g = valueAt(text, group);
  if (!isObject(g) || typeof g.group !== 'string') throw new NavEditError('pages are added to a group');
  return append(text, [...group, 'pages'], page);
}

/** Remove a page, group or tab from its list. */
export function remove(text: string, path: JSONPath): string {
  parentOf(path);
  return edit(text, path, undefined);
}

/** Swap an entry with its neighbour (`by` -1: up, +1: down); the text is unchanged at either end. */
export function move(text: string, path: JSONPath, by: -1 | 1): string {
  const { array, index } = parentOf(path);
  const list = valueAt(text, array);
  if (!Array.isArray(list)) throw new NavEditError('not an element of a list');
  const other = index + by;
  if (other < 0 || other >= list.length) return text;
  // Both elements are rewritten in place: the one that moved and the one it passed.
  return edit(edit(text, [...array, index], list[other]), [...array, other], list[index]);
}

/** Move a page or group to the end of another group's pages (or a level's groups, for a group). */
export function moveTo(text: string, path: JSONPath, target: JSONPath): string {
  if (target.length >= path.length && samePath(target.slice(0, path.length), path)) throw new NavEditError('an entry cannot move into itself');
  const value = valueAt(text, path);
  if (value === undefined) throw new NavEditError('no such entry');
  const { array, index } = parentOf(path);
  let removed = remove(text, path);
  // Removing shifts the later siblings (and what lies inside them) down by one.
  const at = target.slice();
  if (at.length > array.length && samePath(at.slice(0, array.length), array) && typeof at[array.length] === 'number' && (at[array.length] as number) > index) {
    at[array.length] = (at[array.length] as number) - 1;
  }
  const t = valueAt(removed, at);
  if (!isObject(t)) throw new NavEditError('no such target');
  const key = typeof t.group === 'string' ? 'pages' : 'groups';
  if (key === 'groups' && typeof value === 'string') throw new NavEditError('a page goes into a group');
  removed = append(removed, [...at, key], value);
  return removed;
}

/** The path of a node after `moveTo`/`addGroup` changed indices is re-read by the caller; this names a path for labels and test ids. */
export const pathKey = (path: JSONPath): string => path.join('/');
