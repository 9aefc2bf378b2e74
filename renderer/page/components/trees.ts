/**
 * Tree and FileTree (aliases, as in Mintlify), Tree.Folder (name, defaultOpen, openable,
 * highlight) and Tree.File (name, highlight). Either syntax works in either tag: the components,
 * or a Markdown list where an item ending in `/` or holding a nested list is a folder (open by
 * default when it has items) and inline formatting is dropped from names.
 */
import { escapeHtml } from '../html.js';
import type { ElementNode } from '../tree.js';
import type { ComponentCall, ComponentRenderer } from './call.js';

interface Entry {
  name: string;
  folder: boolean;
  open: boolean;
  openable: boolean;
  highlight: boolean;
  children: Entry[];
}

function entriesFromElements(c: ComponentCall, els: ElementNode[]): Entry[] {
  return els.map((el) => {
    const item = c.sub(el);
    const folder = el.name === 'Tree.Folder';
    return {
      name: item.str('name') ?? '',
      folder,
      open: item.bool('defaultOpen') || item.bool('open'),
      openable: !(item.has('openable') && !item.bool('openable')),
      highlight: item.bool('highlight'),
      children: folder ? entriesFromElements(item, item.childElements('Tree.Folder', 'Tree.File')) : [],
    };
  });
}

const LIST_ITEM_RE = /^(\s*)[-*+]\s+(.*)$/;

/** Inline markdown in a name: `code`, **bold**, _italic_, [text](link) → plain text. */
function plainName(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(\*|_)(.*?)\1/g, '$2')
    .trim();
}

/** A nested Markdown list (indentation decides the depth) → entries. */
function entriesFromList(source: string): Entry[] {
  const root: Entry = { name: '', folder: true, open: true, openable: true, highlight: false, children: [] };
  const stack: { indent: number; entry: Entry }[] = [{ indent: -1, entry: root }];
  for (const line of source.split('\n')) {
    const m = LIST_ITEM_RE.exec(line.replace(/\t/g, '  '));
    if (!m) continue;
    const indent = m[1]?.length ?? 0;
    while (stack.length > 1 && (stack[stack.length - 1]?.indent ?? -1) >= indent) stack.pop();
    const parent = stack[stack.length - 1]?.entry ?? root;
    const rawName = plainName(m[2] ?? '');
    const entry: Entry = { name: rawName.replace(/\/+$/, ''), folder: rawName.endsWith('/'), open: false, openable: true, highlight: false, children: [] };
    parent.children.push(entry);
    parent.folder = true;
    stack.push({ indent, entry });
  }
  const openFilled = (e: Entry): void => {
    if (e.children.length > 0) e.open = true;
    e.children.forEach(openFilled);
  };
  root.children.forEach(openFilled);
  return root.children;
}

function items(c: ComponentCall, entries: Entry[]): string {
  return entries
    .map((e) => {
      const name = escapeHtml(e.name);
      const mark = e.highlight ? ' c-tree__item--highlight' : '';
      if (!e.folder) return `<li class="c-tree__file${mark}">${c.themeIcon('file', 'c-tree__icon')}${name}</li>`;
      const list = `<ul class="c-tree__list">${items(c, e.children)}</ul>`;
      if (!e.openable) return `<li class="c-tree__folder c-tree__folder--static${mark}"><span class="c-tree__label">${c.themeIcon('folder', 'c-tree__icon')}${name}</span>${list}</li>`;
      return (
        `<li class="c-tree__folder${mark}"><details${e.open ? ' open' : ''}><summary>${c.themeIcon('folder', 'c-tree__icon')}${name}</summary>` +
        `${list}</details></li>`
      );
    })
    .join('');
}

function tree(c: ComponentCall): string {
  const elements = c.childElements('Tree.Folder', 'Tree.File');
  const source = c.el.children.map((n) => (n.kind === 'text' ? n.value : '')).join('');
  const entries = elements.length > 0 ? entriesFromElements(c, elements) : entriesFromList(source);
  return `<div class="c-tree"><ul class="c-tree__list">${items(c, entries)}</ul></div>`;
}

export const treeComponents: Record<string, ComponentRenderer> = {
  Tree: tree,
  FileTree: tree,
  'Tree.Folder': (c) => `<div class="c-tree"><ul class="c-tree__list">${items(c, entriesFromElements(c, [c.el]))}</ul></div>`,
  'Tree.File': (c) => `<div class="c-tree"><ul class="c-tree__list">${items(c, entriesFromElements(c, [c.el]))}</ul></div>`,
};
