/**
 * The editor page's script (bundled by scripts/build-editor.mjs). Wires the server-rendered shell
 * (app/editor/page.ts) to the JSON API: branches, the file tree, source and visual modes, the
 * live preview, save with the conflict dialog, and publish / deploy preview / pull request.
 */
import './editor.css';
import { createTwoFilesPatch } from 'diff';
import { ApiError, createApi, type Conflict, type EditorState, type PreviewError, type TreeEntry } from './api.js';
import { ask, byId, el } from './dom.js';
import { createFileTree } from './file-tree.js';
import { mountNavPanel } from './nav-panel.js';
import { createPreviewPane } from './preview-pane.js';
import { installShortcuts } from './shortcuts.js';
import { createSourceEditor } from './source-editor.js';
import { mountVisualEditor, type VisualHandle } from './visual-mode.js';
import { mergeEdits } from './merge.js';

interface PageConfig { apiBase: string; csrf: string; project: { id: string; name: string }; role: 'read' | 'write'; branch: string | null; path: string | null }

const config = JSON.parse(byId('editor-config').textContent ?? '{}') as PageConfig;
const api = createApi(config.apiBase, config.csrf);
const statusLine = byId('status');
const branchSelect = byId<HTMLSelectElement>('branch-select');
const saveButton = byId<HTMLButtonElement>('save');
const currentPath = byId('current-path');
const sourceHost = byId('source-host');
const visualHost = byId('visual-host');
const diffView = byId('diff-view');
const errorsList = byId<HTMLUListElement>('errors');
const filter = byId<HTMLInputElement>('file-filter');

let state: EditorState | undefined;
let branch = '';
/** The open file: its path, the blob sha it was read at, and the content as saved. */
let open: { path: string; sha: string; saved: string } | undefined;
let visual: VisualHandle | undefined;
let canWrite = config.role === 'write';

function say(text: string, link?: { href: string; label: string }): void {
  statusLine.replaceChildren(text);
  if (link) {
    statusLine.append(' ', el('a', { href: link.href, target: '_blank', rel: 'noopener' }, link.label));
  }
}
const failure = (err: unknown): string => (err instanceof ApiError ? `${err.message} (${err.code})` : (err as Error).message);

const source = createSourceEditor(sourceHost, { label: 'Page source', onChange: (text) => changed(text) });
const tree = createFileTree(byId<HTMLUListElement>('file-tree'), (entry) => void openEntry(entry));
const preview = createPreviewPane(byId<HTMLIFrameElement>('preview'), api, showErrors);

const content = (): string => (visual ? visual.getSource() : source.getSource());
const dirty = (): boolean => open !== undefined && content() !== open.saved;

function changed(text: string): void {
  markDirty();
  if (open) preview.schedule({ branch, path: open.path, content: text });
  if (!diffView.hidden) renderDiff();
}

function markDirty(): void {
  const d = dirty();
  saveButton.textContent = d ? 'Save •' : 'Save';
  saveButton.setAttribute('aria-label', d ? 'Save (unsaved changes)' : 'Save');
  document.title = (d ? '• ' : '') + document.title.replace(/^• /, '');
}

function showErrors(errors: PreviewError[]): void {
  errorsList.replaceChildren();
  if (open) source.setErrors(errors, open.path);
  if (!errors.length) {
    errorsList.append(el('li', { class: 'muted' }, 'None'));
    return;
  }
  for (const e of errors) {
    const where = `${e.file}:${e.line}${e.column ? ':' + e.column : ''}`;
    const li = el('li');
    const button = el('button', { type: 'button', class: 'link problem' });
    button.append(el('code', {}, where), ` ${e.message}`);
    button.addEventListener('click', () => {
      if (!open || e.file !== open.path || visual) return;
      const doc = source.view.state.doc;
      const line = doc.line(Math.min(Math.max(1, e.line), doc.lines));
      source.view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
      source.focus();
    });
    li.append(button);
    errorsList.append(li);
  }
}

function renderDiff(): void {
  if (!open) {
    diffView.textContent = 'No file open.';
    return;
  }
  const patch = createTwoFilesPatch(`${open.path} (saved)`, `${open.path} (yours)`, open.saved, content(), undefined, undefined, { context: 3 });
  diffView.textContent = dirty() ? patch : 'No unsaved changes.';
}

function leaveOk(): boolean {
  return !dirty() || window.confirm('This file has unsaved changes. Leave them?');
}

async function loadTree(): Promise<TreeEntry[]> {
  const t = await api.tree(branch);
  tree.setEntries(t.entries);
  return t.entries;
}

async function openEntry(entry: TreeEntry): Promise<void> {
  if (entry.kind === 'image') {
    if (!open || !canWrite) return say(`${entry.path}: reference it as ![description](/${entry.path})`);
    insertText(`![](/${entry.path})`);
    return say(`Inserted a reference to ${entry.path}.`);
  }
  await openFile(entry.path);
}

function insertText(text: string): void {
  if (visual) return say('Switch to source mode to insert a reference.');
  const { from, to } = source.view.state.selection.main;
  source.view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
  source.focus();
}

/** The latest open wins: a slower earlier one (a branch switch reopening its file) must not replace it. */
let openSeq = 0;

async function openFile(path: string): Promise<void> {
  if (!leaveOk()) return;
  const mine = ++openSeq;
  try {
    const file = await api.file(branch, path);
    if (mine !== openSeq) return;
    leaveVisual(false);
    open = { path: file.path, sha: file.sha, saved: file.content };
    source.setSource(file.content);
    currentPath.textContent = file.path;
    tree.setCurrent(file.path);
    markDirty();
    history.replaceState(null, '', `?${new URLSearchParams({ branch, path: file.path })}`);
    say(`Opened ${file.path} on ${branch}.`);
    await preview.now({ branch, path: file.path, content: file.content });
  } catch (err) {
    say(`Could not open ${path}: ${failure(err)}`);
  }
}

async function save(): Promise<void> {
  if (!open || !canWrite) return;
  const text = content();
  say(`Saving ${open.path}…`);
  try {
    const r = await api.save({ branch, path: open.path, content: text, baseSha: open.sha });
    open = { path: open.path, sha: r.sha, saved: text };
    markDirty();
    say(r.commit ? `Saved ${r.path}: commit ${r.commit.slice(0, 10)} on ${branch}.` : state?.source === 'directory' ? `Saved ${r.path} to the directory.` : `Saved ${r.path}: no change to commit.`);
    updateBranchHead(branch, r.head);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'EDIT_CONFLICT') return resolveConflict(err.body.conflict as Conflict, text);
    say(`Not saved: ${failure(err)}`);
  }
}

/** A stale save: show their change as a diff and let the writer merge both, keep theirs, keep mine, or branch off. Nothing is dropped silently. */
async function resolveConflict(conflict: Conflict, mine: string): Promise<void> {
  const dialog = byId<HTMLDialogElement>('dialog-conflict');
  byId('conflict-by').textContent = conflict.by
    ? `${conflict.by.author} saved ${conflict.path} in commit ${conflict.by.commit.slice(0, 10)} ("${conflict.by.message}") after you opened it.`
    : `${conflict.path} changed on ${branch} after you opened it.`;
  byId('conflict-diff').textContent = conflict.diff;
  const choice = await ask(dialog);
  if (!open) return;
  if (choice === 'merge') {
    const merged = mergeEdits(open.saved, mine, conflict.theirs);
    if (merged === undefined) return say(`Not merged: you and they changed the same lines of ${conflict.path}. Your edit is still in the editor; save again to keep mine, take theirs or branch off.`);
    open = { path: open.path, sha: conflict.theirsSha, saved: conflict.theirs };
    leaveVisual(false);
    source.setSource(merged);
    markDirty();
    return say(`Merged their change into yours in ${conflict.path}: review it and save.`);
  }
  if (choice === 'mine') {
    open.sha = conflict.theirsSha;
    return save();
  }
  if (choice === 'theirs') {
    open = { path: open.path, sha: conflict.theirsSha, saved: conflict.theirs };
    leaveVisual(false);
    source.setSource(conflict.theirs);
    markDirty();
    return say(`Took their version of ${conflict.path}; your edit is gone from the page (it is in the diff you saw).`);
  }
  if (choice === 'branch') {
    const created = await newBranch(branch);
    if (!created) return say('Not saved: no branch created. Your edit is still in the editor.');
    open.sha = conflict.theirsSha;
    source.setSource(mine);
    return save();
  }
  say('Not saved. Your edit is still in the editor.');
}

function updateBranchHead(name: string, head: string): void {
  const b = state?.branches.find((x) => x.name === name);
  if (b) b.head = head;
}

function fillBranches(): void {
  if (!state) return;
  branchSelect.replaceChildren(...state.branches.map((b) => el('option', { value: b.name }, b.name === state!.defaultBranch ? `${b.name} (default)` : b.name)));
  branchSelect.value = branch;
  byId<HTMLSelectElement>('branch-from').replaceChildren(...state.branches.map((b) => el('option', { value: b.name }, b.name)));
}

async function switchBranch(name: string): Promise<void> {
  if (!leaveOk()) {
    branchSelect.value = branch;
    return;
  }
  const keep = open?.path;
  open = undefined;
  branch = name;
  branchSelect.value = name;
  const entries = await loadTree();
  const target = keep && entries.some((e) => e.path === keep) ? keep : firstPage(entries);
  if (target) await openFile(target);
  else say(`Switched to ${name}.`);
  const deployed = state?.branches.find((b) => b.name === name)?.preview;
  if (deployed) say(`${statusLine.textContent ?? ''} Preview deployment (${deployed.status}):`, { href: deployed.url, label: deployed.url });
}

const firstPage = (entries: TreeEntry[]): string | undefined =>
  entries.find((e) => /^index\.mdx?$/.test(e.path))?.path ?? entries.find((e) => e.kind === 'page')?.path;

/** Ask for a branch name and create it from `from`; switches to it. Resolves with its name, or undefined when cancelled. */
async function newBranch(from: string): Promise<string | undefined> {
  const dialog = byId<HTMLDialogElement>('dialog-branch');
  const name = byId<HTMLInputElement>('branch-name');
  const fromSelect = byId<HTMLSelectElement>('branch-from');
  name.value = '';
  fromSelect.value = from;
  let created: string | undefined;
  const choice = await ask(dialog, async () => {
    try {
      created = (await api.createBranch(name.value.trim(), fromSelect.value)).name;
      return undefined;
    } catch (err) {
      return failure(err);
    }
  });
  if (choice !== 'ok' || !created) return undefined;
  state = await api.state();
  branch = created;
  fillBranches();
  await loadTree();
  say(`Created branch ${created} from ${fromSelect.value}.`);
  return created;
}

function toggleMode(): void {
  if (visual) leaveVisual(true);
  else enterVisual();
}

function enterVisual(): void {
  if (!mountVisualEditor) return say('Visual mode is not part of this build; source mode only.');
  if (!open) return say('Open a page first.');
  if (!/\.mdx?$/.test(open.path)) return say('Visual mode edits pages (.mdx, .md) only.');
  const text = source.getSource();
  try {
    // Mounted while the source is still shown: a refused page (VisualModeRefused, thrown before
    // anything is mounted) leaves the page in source mode with nothing lost.
    visual = mountVisualEditor(visualHost, text, { onChange: (s) => changed(s) });
  } catch (err) {
    visualHost.replaceChildren();
    const where = (err as { failure?: { line: number; column: number; message: string } }).failure;
    setModeButtons();
    if (!where) return say(`Visual mode failed: ${(err as Error).message}`);
    return say(`Visual mode refused ${open.path}:${where.line}:${where.column}: ${where.message}. The page stays in source mode.`);
  }
  sourceHost.hidden = true;
  visualHost.hidden = false;
  setModeButtons();
  say(`Visual mode: ${open.path}.`);
}

function leaveVisual(keep: boolean): void {
  if (!visual) return;
  const text = visual.getSource();
  visual.destroy();
  visual = undefined;
  visualHost.replaceChildren();
  visualHost.hidden = true;
  sourceHost.hidden = false;
  if (keep && text !== source.getSource()) source.setSource(text);
  setModeButtons();
  source.focus();
}

function setModeButtons(): void {
  byId('mode-source').setAttribute('aria-pressed', String(!visual));
  byId('mode-visual').setAttribute('aria-pressed', String(!!visual));
}

async function action(name: string, run: () => Promise<void>): Promise<void> {
  if (dirty()) return say(`Save first: ${name} works on what is committed on ${branch}.`);
  try {
    await run();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'MERGE_CONFLICT') {
      const files = Array.isArray(err.body.files) ? (err.body.files as string[]).join(', ') : '';
      return say(`${name} refused: ${branch} does not merge cleanly into ${state?.defaultBranch} (${files}). Merge the default branch into it, or open a pull request.`);
    }
    say(`${name} failed: ${failure(err)}`);
  }
}

function wire(): void {
  mountNavPanel(byId('sidebar'), { api, branch: () => branch, canWrite: () => canWrite, say });
  byId('save').addEventListener('click', () => void save());
  byId('mode-source').addEventListener('click', () => leaveVisual(true));
  byId('mode-visual').addEventListener('click', () => enterVisual());
  branchSelect.addEventListener('change', () => void switchBranch(branchSelect.value));
  byId('new-branch').addEventListener('click', async () => {
    if (!leaveOk()) return;
    const created = await newBranch(branch);
    if (created) await switchBranch(created);
  });
  filter.addEventListener('input', () => tree.setFilter(filter.value));
  byId('new-page').addEventListener('click', async () => {
    const input = byId<HTMLInputElement>('page-path');
    input.value = '';
    let made: string | undefined;
    const choice = await ask(byId<HTMLDialogElement>('dialog-page'), async () => {
      const path = input.value.trim().replace(/^\/+/, '');
      if (!/\.mdx?$/.test(path)) return 'A page ends in .mdx or .md.';
      const title = path.replace(/^.*\//, '').replace(/\.mdx?$/, '').replace(/[-_]/g, ' ');
      try {
        await api.save({ branch, path, content: `---\ntitle: "${title}"\n---\n\n`, baseSha: null, message: `Create ${path}` });
        made = path;
        return undefined;
      } catch (err) {
        return failure(err);
      }
    });
    if (choice === 'ok' && made) {
      await loadTree();
      await openFile(made);
    }
  });
  byId('rename').addEventListener('click', async () => {
    if (!open) return say('Open the file to rename first.');
    if (!leaveOk()) return;
    const from = open.path;
    const to = byId<HTMLInputElement>('rename-to');
    to.value = from;
    let done = false;
    const choice = await ask(byId<HTMLDialogElement>('dialog-rename'), async () => {
      try {
        await api.rename({ branch, from, to: to.value.trim(), redirect: byId<HTMLInputElement>('rename-redirect').checked });
        done = true;
        return undefined;
      } catch (err) {
        return failure(err);
      }
    });
    if (choice === 'ok' && done) {
      open = undefined;
      await loadTree();
      await openFile(to.value.trim());
    }
  });
  byId('delete').addEventListener('click', async () => {
    if (!open) return say('Open the file to delete first.');
    const target = open;
    byId('delete-path').textContent = target.path;
    const choice = await ask(byId<HTMLDialogElement>('dialog-delete'), async () => {
      try {
        await api.remove(branch, target.path, target.sha);
        return undefined;
      } catch (err) {
        return failure(err);
      }
    });
    if (choice !== 'ok') return;
    open = undefined;
    source.setSource('');
    currentPath.textContent = 'No file open';
    markDirty();
    await loadTree();
    say(`Deleted ${target.path} on ${branch}.`);
  });
  byId<HTMLInputElement>('upload').addEventListener('change', async (ev) => {
    const input = ev.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const path = `images/${file.name.replace(/[^\w.-]+/g, '-')}`;
    try {
      const r = await api.upload(branch, path, file);
      await loadTree();
      say(r.commit ? `Uploaded ${r.path} (commit ${r.commit.slice(0, 10)}).` : `Uploaded ${r.path}.`);
      if (open && /\.mdx?$/.test(open.path)) insertText(`![](/${r.path})`);
    } catch (err) {
      say(`Upload refused: ${failure(err)}`);
    }
  });
  byId('deploy-preview').addEventListener('click', () =>
    void action('Deploy preview', async () => {
      say(`Deploying a preview of ${branch}…`);
      const r = await api.deployPreview(branch);
      say(`Preview of ${branch} is building:`, { href: r.previewUrl, label: r.previewUrl });
    }),
  );
  byId('publish').addEventListener('click', () =>
    void action('Publish', async () => {
      const onDefault = branch === state?.defaultBranch;
      if (!window.confirm(onDefault ? `Publish ${branch}?` : `Merge ${branch} into ${state?.defaultBranch} and publish?`)) return;
      const r = await api.publish(branch);
      say(r.merged ? `Publishing (${r.publishId}): merged as ${r.merged.slice(0, 10)}.` : `Publishing (${r.publishId}).`);
    }),
  );
  byId('open-pr').addEventListener('click', () =>
    void action('Pull request', async () => {
      byId<HTMLInputElement>('pr-title').value = branch;
      let url: string | undefined;
      const choice = await ask(byId<HTMLDialogElement>('dialog-pr'), async () => {
        try {
          url = (await api.pullRequest({ branch, title: byId<HTMLInputElement>('pr-title').value, description: byId<HTMLTextAreaElement>('pr-description').value })).url;
          return undefined;
        } catch (err) {
          return failure(err);
        }
      });
      if (choice === 'ok' && url) say('Pull request opened:', { href: url, label: url });
    }),
  );
  window.addEventListener('beforeunload', (ev) => {
    if (dirty()) ev.preventDefault();
  });
  installShortcuts({
    save: () => void save(),
    toggleMode,
    searchFiles: () => filter.focus(),
    toggleSidebar: () => byId('editor-body').classList.toggle('no-sidebar'),
    toggleDiff: () => {
      diffView.hidden = !diffView.hidden;
      if (!diffView.hidden) renderDiff();
    },
  });
}

async function start(): Promise<void> {
  wire();
  if (!mountVisualEditor) byId<HTMLButtonElement>('mode-visual').disabled = true;
  try {
    state = await api.state();
    canWrite = canWrite && state.canWrite;
    source.setReadOnly(!canWrite);
    branch = config.branch && state.branches.some((b) => b.name === config.branch) ? config.branch : state.defaultBranch;
    fillBranches();
    if (state.source === 'directory') for (const id of ['new-branch', 'deploy-preview', 'open-pr']) byId<HTMLButtonElement>(id).disabled = true;
    const entries = await loadTree();
    const first = config.path && entries.some((e) => e.path === config.path) ? config.path : firstPage(entries);
    if (first) await openFile(first);
    else say(`No pages on ${branch} yet.`);
  } catch (err) {
    say(`The editor could not load: ${failure(err)}`);
  }
}

void start();
