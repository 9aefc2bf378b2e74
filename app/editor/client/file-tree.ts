/**
 * The file tree: the docs root's entries grouped by kind (pages, snippets, images, configuration),
 * filtered by the search box (Mod-K). Each file is a button in a list, so Tab/Enter and screen
 * readers need nothing special; the open file is marked aria-current.
 */
import type { EntryKind, TreeEntry } from './api.js';
import { el } from './dom.js';

const GROUPS: { kind: EntryKind[]; title: string }[] = [
  { kind: ['config'], title: 'Configuration' },
  { kind: ['page'], title: 'Pages' },
  { kind: ['snippet'], title: 'Snippets' },
  { kind: ['image'], title: 'Images' },
  { kind: ['other'], title: 'Other files' },
];

export interface FileTree {
  setEntries(entries: TreeEntry[]): void;
  setCurrent(path: string | undefined): void;
  setFilter(text: string): void;
  entries(): TreeEntry[];
}

export function createFileTree(list: HTMLUListElement, onOpen: (entry: TreeEntry) => void): FileTree {
  let all: TreeEntry[] = [];
  let current: string | undefined;
  let filter = '';
  const render = (): void => {
    list.replaceChildren();
    const needle = filter.trim().toLowerCase();
    for (const group of GROUPS) {
      const items = all.filter((e) => group.kind.includes(e.kind) && (!needle || e.path.toLowerCase().includes(needle)));
      if (!items.length) continue;
      const li = el('li', { class: 'group' });
      li.append(el('h2', { class: 'group-title' }, group.title));
      const ul = el('ul');
      for (const entry of items) {
        const item = el('li');
        const button = el('button', { type: 'button', class: 'file', 'data-path': entry.path, title: entry.path }, entry.path);
        if (entry.path === current) button.setAttribute('aria-current', 'true');
        button.addEventListener('click', () => onOpen(entry));
        item.append(button);
        ul.append(item);
      }
      li.append(ul);
      list.append(li);
    }
    if (!list.children.length) list.append(el('li', { class: 'muted' }, needle ? 'No file matches.' : 'No files.'));
  };
  return {
    setEntries(entries) {
      all = entries;
      render();
    },
    setCurrent(path) {
      current = path;
      render();
    },
    setFilter(text) {
      filter = text;
      render();
    },
    entries: () => all,
  };
}
