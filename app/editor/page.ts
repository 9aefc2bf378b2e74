/**
 * A stand-in for the editor page (the browser UI, app/editor/client, replaces this file): a plain
 * page naming the project and the API, so the router has something to serve at `<editor>/`.
 */
import type { Request, Response } from 'express';

export interface EditorPageModel {
  org: { id: string; name: string };
  project: { id: string; name: string };
  role: 'read' | 'write';
  user: { name: string; csrf: string };
  branch?: string;
  path?: string;
  editorBase: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderEditorPage(_req: Request, res: Response, model: EditorPageModel): void {
  res.setHeader('Cache-Control', 'no-store');
  res
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Editor · ${esc(model.project.name)}</title></head><body><h1>Editor: ${esc(model.project.name)}</h1><p>API: <code>${esc(model.editorBase)}/api/</code> (${model.role} role)</p></body></html>`,
    );
}
