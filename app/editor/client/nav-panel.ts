/**
 * The navigation panel (docs/editor.md "Navigation editor"): docs.json's tabs, groups and pages as
 * a list with labelled buttons (move up/down, rename, add group, add page, remove), edited through
 * the navigation model (app/editor/nav/model.ts) and saved as any file is: PUT api/file with the
 * sha it was read at, so a stale save is a conflict and an invalid config is refused by the server.
 */
import type { JSONPath } from 'jsonc-parser';
import { addGroup, addPage, addTab, move, moveTo, NavEditError, pagesIn, pathKey, readNavigation, remove, rename, type NavNode } from '../nav/model.js';
import { ApiError, type EditorApi } from './api.js';
import { el } from './dom.js';

export interface NavPanelHost {
  api: EditorApi;
  branch(): string;
  canWrite(): boolean;
  say(text: string): void;
}

const CONFIG = 'docs.json';
const pageRef = (path: string): string => path.replace(/\.mdx?$/, '');
const CONTAINERS = new Set(['tab', 'anchor', 'language', 'version', 'dropdown', 'product']);

/** Every group with the names of the levels above it ("Guides › Getting started"), for "Move to group". */
function groupsOf(nodes: NavNode[], above: string[] = []): { node: NavNode; trail: string }[] {
  return nodes.flatMap((n) => (n.kind === 'page' ? [] : [...(n.kind === 'group' ? [{ node: n, trail: [...above, n.label].join(' › ') }] : []), ...groupsOf(n.children, [...above, n.label])]));
}
/** The page's own group is no target: its path is the page's path minus ["pages", i]. */
const samePrefix = (page: JSONPath, group: JSONPath): boolean => pathKey(page.slice(0, -2)) === pathKey(group);

/** Mount the panel's toggle and body at the end of `host` (the sidebar). */
export function mountNavPanel(container: HTMLElement, host: NavPanelHost): void {
  const toggle = el('button', { type: 'button', id: 'nav-toggle', class: 'secondary small', 'aria-expanded': 'false', 'aria-controls': 'nav-panel' }, 'Navigation');
  const panel = el('section', { id: 'nav-panel', class: 'nav-panel', 'aria-labelledby': 'nav-title' });
  panel.hidden = true;
  const title = el('h2', { id: 'nav-title' }, 'Navigation (docs.json)');
  const actions = el('div', { class: 'nav-actions' });
  const saveButton = el('button', { type: 'button', id: 'nav-save', class: 'small' }, 'Save navigation');
  const reloadButton = el('button', { type: 'button', class: 'secondary small' }, 'Reload');
  const addTabButton = el('button', { type: 'button', class: 'secondary small' }, 'Add tab');
  const addRootGroup = el('button', { type: 'button', class: 'secondary small' }, 'Add group');
  actions.append(saveButton, reloadButton, addTabButton, addRootGroup);
  const formHost = el('div', { class: 'nav-form' });
  const list = el('ul', { class: 'nav-tree', 'aria-label': 'Navigation entries' });
  const note = el('p', { class: 'muted nav-note', role: 'status' });
  panel.append(title, actions, formHost, note, list);
  container.append(toggle, panel);

  /** docs.json as read (sha) and as edited (text). */
  let file: { sha: string; saved: string } | undefined;
  let text = '';
  let pages: string[] = [];
  let focusAfter: string | undefined;

  const dirty = () => file !== undefined && text !== file.saved;
  const show = (msg: string) => {
    note.textContent = msg;
    host.say(msg);
  };

  async function load(): Promise<void> {
    try {
      const [f, tree] = await Promise.all([host.api.file(host.branch(), CONFIG), host.api.tree(host.branch())]);
      file = { sha: f.sha, saved: f.content };
      text = f.content;
      pages = tree.entries.filter((e) => e.kind === 'page').map((e) => pageRef(e.path));
      render();
      note.textContent = `docs.json on ${host.branch()}.`;
    } catch (err) {
      file = undefined;
      list.replaceChildren();
      show(`The navigation could not be loaded: ${err instanceof ApiError ? `${err.message} (${err.code})` : (err as Error).message}`);
    }
  }

  function apply(change: (t: string) => string, focus?: string): void {
    try {
      text = change(text);
      focusAfter = focus;
      render();
    } catch (err) {
      if (err instanceof NavEditError) show(`Not changed: ${err.message}`);
      else throw err;
    }
  }

  /** An inline name field (no window.prompt: it stays in the page's focus order). */
  function askName(label: string, initial: string, choices?: { value: string; label: string }[]): Promise<string | undefined> {
    return new Promise((resolve) => {
      const form = el('form', { class: 'nav-name-form' });
      const id = 'nav-name-input';
      const lab = el('label', { for: id }, label);
      let input: HTMLInputElement | HTMLSelectElement;
      if (choices) {
        input = el('select', { id });
        input.append(...choices.map((c) => el('option', { value: c.value }, c.label)));
      } else {
        input = el('input', { id, type: 'text', required: '', autocomplete: 'off' });
        input.value = initial;
      }
      const ok = el('button', { type: 'submit', class: 'small' }, 'OK');
      const cancel = el('button', { type: 'button', class: 'secondary small' }, 'Cancel');
      const opener = document.activeElement as HTMLElement | null;
      const done = (v: string | undefined) => {
        form.remove();
        opener?.focus();
        resolve(v);
      };
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        const v = input.value.trim();
        if (v) done(v);
      });
      cancel.addEventListener('click', () => done(undefined));
      form.addEventListener('keydown', (ev) => {
        if (ev.key === 'Escape') done(undefined);
      });
      form.append(lab, input, ok, cancel);
      formHost.replaceChildren(form);
      input.focus();
    });
  }

  function button(label: string, action: string, node: NavNode, run: () => void, disabled = false): HTMLButtonElement {
    const b = el('button', { type: 'button', class: 'secondary small', 'aria-label': `${label}: ${node.kind} ${node.label}`, 'data-focus': `${action}@${pathKey(node.path)}` }, label);
    b.disabled = disabled || !host.canWrite();
    b.addEventListener('click', run);
    return b;
  }

  /** Where a node is after moving by one: its last index changes. */
  const shifted = (path: JSONPath, by: number): string => pathKey([...path.slice(0, -1), (path[path.length - 1] as number) + by]);

  function row(node: NavNode, siblings: number, index: number): HTMLLIElement {
    const li = el('li', { class: `nav-${node.kind}` });
    const head = el('div', { class: 'nav-row' });
    head.append(el('span', { class: 'nav-kind' }, node.kind), el(node.kind === 'page' ? 'code' : 'strong', { class: 'nav-label' }, node.label));
    const tools = el('span', { class: 'nav-tools' });
    const indexed = typeof node.path[node.path.length - 1] === 'number';
    if (indexed) {
      tools.append(
        button('Move up', 'up', node, () => apply((t) => move(t, node.path, -1), `up@${shifted(node.path, -1)}`), index === 0),
        button('Move down', 'down', node, () => apply((t) => move(t, node.path, 1), `down@${shifted(node.path, 1)}`), index === siblings - 1),
      );
    }
    if (node.kind === 'group' || CONTAINERS.has(node.kind)) {
      tools.append(
        button('Rename', 'rename', node, async () => {
          const name = await askName(`New name for ${node.label}`, node.label);
          if (name) apply((t) => rename(t, node.path, name), `rename@${pathKey(node.path)}`);
        }),
        button('Add group', 'add-group', node, async () => {
          const name = await askName(`Name of the new group in ${node.label}`, '');
          if (name) apply((t) => addGroup(t, node.path, name));
        }),
      );
    }
    if (node.kind === 'group') {
      tools.append(
        button('Add page', 'add-page', node, async () => {
          const listed = new Set(pagesIn(readNavigation(text)));
          const free = pages.filter((p) => !listed.has(p));
          if (!free.length) return show('Every page of the docs root is in the navigation already.');
          const page = await askName(`Page to add to ${node.label}`, '', free.map((p) => ({ value: p, label: p })));
          if (page) apply((t) => addPage(t, node.path, page));
        }),
      );
    }
    if (node.kind === 'page') {
      tools.append(
        button('Move to group', 'move-to', node, async () => {
          const targets = groupsOf(readNavigation(text)).filter((g) => !samePrefix(node.path, g.node.path));
          if (!targets.length) return show('There is no other group to move it to.');
          const key = await askName(`Group to move ${node.label} to`, '', targets.map((g) => ({ value: pathKey(g.node.path), label: g.trail })));
          const target = targets.find((g) => pathKey(g.node.path) === key);
          if (target) apply((t) => moveTo(t, node.path, target.node.path));
        }),
      );
    }
    if (indexed) tools.append(button('Remove', 'remove', node, () => apply((t) => remove(t, node.path))));
    head.append(tools);
    li.append(head);
    if (node.children.length) {
      const ul = el('ul');
      node.children.forEach((c, i) => ul.append(row(c, node.children.length, i)));
      li.append(ul);
    }
    return li;
  }

  function render(): void {
    const tree = readNavigation(text);
    list.replaceChildren(...tree.map((n, i) => row(n, tree.length, i)));
    if (!tree.length) list.append(el('li', { class: 'muted' }, 'docs.json has no navigation entries.'));
    saveButton.textContent = dirty() ? 'Save navigation •' : 'Save navigation';
    saveButton.disabled = !host.canWrite() || !dirty();
    addTabButton.disabled = addRootGroup.disabled = !host.canWrite() || file === undefined;
    // Top-level groups beside tabs or anchors are not shown by the site: add groups to a tab instead.
    addRootGroup.hidden = tree.some((n) => CONTAINERS.has(n.kind));
    if (focusAfter) {
      // At the top (or bottom) its "Move up" is disabled: keep focus on the same entry's other move.
      const other = focusAfter.replace(/^(up|down)@/, (_m, a: string) => (a === 'up' ? 'down@' : 'up@'));
      const target = [focusAfter, other]
        .map((k) => list.querySelector<HTMLButtonElement>(`[data-focus="${CSS.escape(k)}"]`))
        .find((b) => b && !b.disabled);
      (target ?? saveButton).focus();
      focusAfter = undefined;
    }
  }

  async function save(): Promise<void> {
    if (!file || !dirty()) return;
    const content = text;
    try {
      const r = await host.api.save({ branch: host.branch(), path: CONFIG, content, baseSha: file.sha, message: 'Update navigation' });
      file = { sha: r.sha, saved: content };
      render();
      show(r.commit ? `Saved the navigation: commit ${r.commit.slice(0, 10)} on ${host.branch()}.` : 'Saved the navigation.');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'EDIT_CONFLICT') return show('Not saved: docs.json changed on the branch since the navigation was loaded. Reload to see the other change, then redo yours.');
      show(`Not saved: ${err instanceof ApiError ? `${err.message} (${err.code})` : (err as Error).message}`);
    }
  }

  toggle.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute('aria-expanded', String(!panel.hidden));
    if (!panel.hidden) void load().then(() => title.focus());
  });
  title.tabIndex = -1;
  saveButton.addEventListener('click', () => void save());
  reloadButton.addEventListener('click', () => {
    if (!dirty() || window.confirm('Drop your unsaved navigation changes?')) void load();
  });
  addTabButton.addEventListener('click', async () => {
    const name = await askName('Name of the new tab', '');
    if (name) apply((t) => addTab(t, name));
  });
  addRootGroup.addEventListener('click', async () => {
    const name = await askName('Name of the new group (at the top level of the navigation)', '');
    if (name) apply((t) => addGroup(t, ['navigation'], name));
  });
}
