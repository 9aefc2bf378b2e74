/**
 * The editor page (issue 41): a server-rendered shell with the console's header and look, the
 * labelled controls and dialogs the browser bundle wires up, and the bundle itself
 * (<editor>/static/editor.js|css). The configuration the script needs (API base, CSRF token,
 * project, branch, role) is a JSON data block, not inline script, so the page's own CSP can
 * forbid inline script and every outside load.
 */
import type { Request, Response } from 'express';
import { UPLOAD_IMAGE_TYPES } from './upload.js';

export interface EditorPageModel {
  org: { id: string; name: string };
  project: { id: string; name: string };
  /** The console role in the project's organization: write may change, read only views. */
  role: 'read' | 'write';
  user: { name: string; csrf: string };
  /** Branch to open first (a `?branch=` the router accepted), else the client takes the default branch. */
  branch?: string;
  /** File to open first (`?path=`). */
  path?: string;
  /** The editor's base URL, `/console/orgs/:orgId/projects/:projectId/editor` (no trailing slash). */
  editorBase: string;
}

/**
 * Only the appliance's own files. Styles allow 'unsafe-inline' (as the exported site's CSP does,
 * renderer/csp.ts): CodeMirror generates its rules at run time, and the preview is a sandboxed
 * srcdoc frame, which inherits this policy, showing the site's own inline styles. Scripts stay
 * 'self' only; frames are same-origin; preview deployments open in a new tab.
 */
export const EDITOR_CSP = editorCsp();

function editorCsp(): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside <script type="application/json">: `<` escaped so no `</script>` can close it. */
const jsonBlock = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

export function renderEditorPage(_req: Request, res: Response, model: EditorPageModel): void {
  const config = {
    apiBase: `${model.editorBase}/api/`,
    csrf: model.user.csrf,
    project: model.project,
    org: model.org,
    role: model.role,
    branch: model.branch ?? null,
    path: model.path ?? null,
  };
  const orgBase = `/console/orgs/${encodeURIComponent(model.org.id)}`;
  const projectUrl = `${orgBase}/projects/${encodeURIComponent(model.project.id)}`;
  const ro = model.role !== 'write';
  const writeOnly = ro ? ' disabled aria-disabled="true"' : '';
  res.setHeader('Content-Security-Policy', EDITOR_CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.status(200).type('html').send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Editor · ${esc(model.project.name)} · docs-appliance console</title>
<link rel="icon" href="/console/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/static/console.css">
<link rel="stylesheet" href="${esc(model.editorBase)}/static/editor.css">
<script type="application/json" id="editor-config">${jsonBlock(config)}</script>
<script src="${esc(model.editorBase)}/static/editor.js" defer></script>
</head>
<body class="editor-page">
<a class="skip" href="#source-pane">Skip to the editor</a>
<header class="top">
  <a class="brand" href="/console">docs-appliance <span>console</span></a>
  <nav aria-label="Breadcrumb"><ul>
    <li><a href="${esc(orgBase)}">${esc(model.org.name)}</a></li>
    <li><a href="${esc(projectUrl)}">${esc(model.project.name)}</a></li>
    <li><a href="${esc(model.editorBase)}" aria-current="page">Editor</a></li>
  </ul></nav>
  <div class="who"><span>${esc(model.user.name)} · <strong>${esc(model.role)}</strong> role</span></div>
</header>
<h1 class="sr">Editor: ${esc(model.project.name)}</h1>
<div class="editor-bar" role="toolbar" aria-label="Editor">
  <label for="branch-select" class="inline">Branch</label>
  <select id="branch-select"></select>
  <button type="button" id="new-branch" class="secondary"${writeOnly}>New branch</button>
  <div class="modes" role="group" aria-label="Editing mode">
    <button type="button" id="mode-source" class="secondary" aria-pressed="true">Source</button>
    <button type="button" id="mode-visual" class="secondary" aria-pressed="false">Visual</button>
  </div>
  <button type="button" id="save"${writeOnly} aria-keyshortcuts="Control+S Meta+S">Save</button>
  <button type="button" id="deploy-preview" class="secondary"${writeOnly}>Deploy preview</button>
  <button type="button" id="open-pr" class="secondary"${writeOnly}>Open pull request</button>
  <button type="button" id="publish"${writeOnly}>Publish</button>
  <p id="status" role="status" aria-live="polite">${ro ? 'Read role: you can view, not save.' : 'Loading…'}</p>
</div>
<div class="editor-body" id="editor-body">
  <nav id="sidebar" aria-label="Files">
    <label for="file-filter">Search files</label>
    <input id="file-filter" type="search" autocomplete="off" aria-keyshortcuts="Control+K Meta+K" aria-controls="file-tree">
    <div class="file-actions">
      <button type="button" id="new-page" class="secondary small"${writeOnly}>New page</button>
      <button type="button" id="rename" class="secondary small"${writeOnly}>Rename</button>
      <button type="button" id="delete" class="danger small"${writeOnly}>Delete</button>
      <label class="button secondary small upload${ro ? ' disabled' : ''}">Upload image<input type="file" id="upload" accept="${UPLOAD_IMAGE_TYPES.join(',')}" class="sr"${writeOnly}></label>
    </div>
    <ul id="file-tree" class="file-tree" aria-label="Files of the docs root"></ul>
  </nav>
  <section id="source-pane" tabindex="-1" aria-labelledby="current-path">
    <h2 id="current-path" class="current-path">No file open</h2>
    <div id="source-host" class="source-host"></div>
    <div id="visual-host" class="visual-host" hidden></div>
    <pre id="diff-view" class="diff-view" hidden aria-label="Unsaved changes"></pre>
    <section aria-labelledby="problems-title" class="problems">
      <h3 id="problems-title">Problems</h3>
      <ul id="errors"><li class="muted">None</li></ul>
    </section>
  </section>
  <section id="preview-pane" aria-label="Preview">
    <iframe id="preview" title="Preview of the page" sandbox="allow-scripts allow-popups"></iframe>
  </section>
</div>
<dialog id="dialog-branch" aria-labelledby="dialog-branch-title"><form method="dialog">
  <h2 id="dialog-branch-title">New branch</h2>
  <label for="branch-name">Branch name</label><input id="branch-name" name="name" required pattern="[A-Za-z0-9._\\/\\-]+" autocomplete="off">
  <label for="branch-from">From</label><select id="branch-from" name="from"></select>
  <p class="dialog-error error" role="alert"></p>
  <div class="dialog-buttons"><button value="ok">Create branch</button><button value="cancel" formnovalidate class="secondary">Cancel</button></div>
</form></dialog>
<dialog id="dialog-page" aria-labelledby="dialog-page-title"><form method="dialog">
  <h2 id="dialog-page-title">New page</h2>
  <label for="page-path">Path</label><input id="page-path" name="path" required placeholder="guides/new-page.mdx" autocomplete="off">
  <p class="hint">Relative to the docs root; ends in .mdx or .md. Add it to docs.json's navigation to list it.</p>
  <p class="dialog-error error" role="alert"></p>
  <div class="dialog-buttons"><button value="ok">Create page</button><button value="cancel" formnovalidate class="secondary">Cancel</button></div>
</form></dialog>
<dialog id="dialog-rename" aria-labelledby="dialog-rename-title"><form method="dialog">
  <h2 id="dialog-rename-title">Rename or move</h2>
  <label for="rename-to">New path</label><input id="rename-to" name="to" required autocomplete="off">
  <fieldset><legend>Old links</legend><label><input type="checkbox" id="rename-redirect" checked> Add a redirect from the old path</label></fieldset>
  <p class="dialog-error error" role="alert"></p>
  <div class="dialog-buttons"><button value="ok">Rename</button><button value="cancel" formnovalidate class="secondary">Cancel</button></div>
</form></dialog>
<dialog id="dialog-delete" aria-labelledby="dialog-delete-title"><form method="dialog">
  <h2 id="dialog-delete-title">Delete file</h2>
  <p>Delete <code id="delete-path"></code> on this branch? The commit keeps its history.</p>
  <p class="dialog-error error" role="alert"></p>
  <div class="dialog-buttons"><button value="ok" class="danger">Delete</button><button value="cancel" class="secondary">Cancel</button></div>
</form></dialog>
<dialog id="dialog-pr" aria-labelledby="dialog-pr-title"><form method="dialog">
  <h2 id="dialog-pr-title">Open a pull request</h2>
  <label for="pr-title">Title</label><input id="pr-title" name="title" required autocomplete="off">
  <label for="pr-description">Description</label><textarea id="pr-description" name="description" rows="5"></textarea>
  <p class="dialog-error error" role="alert"></p>
  <div class="dialog-buttons"><button value="ok">Open pull request</button><button value="cancel" formnovalidate class="secondary">Cancel</button></div>
</form></dialog>
<dialog id="dialog-conflict" aria-labelledby="dialog-conflict-title" class="wide"><form method="dialog">
  <h2 id="dialog-conflict-title">This file changed on the branch</h2>
  <p id="conflict-by"></p>
  <p class="hint">The diff goes from their version to yours. Nothing is lost: choose what to keep.</p>
  <pre id="conflict-diff" class="diff-view" tabindex="0" aria-label="Differences from their version to yours"></pre>
  <div class="dialog-buttons">
    <button value="merge">Merge both</button>
    <button value="mine" class="secondary">Keep mine</button>
    <button value="theirs" class="secondary">Take theirs</button>
    <button value="branch" class="secondary">Save mine on a new branch</button>
    <button value="cancel" class="secondary">Cancel</button>
  </div>
</form></dialog>
</body>
</html>
`);
}
