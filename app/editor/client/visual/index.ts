/**
 * The visual mode: `mountVisualEditor(el, source, { onChange })` → `{ getSource(), destroy() }`.
 *
 * A page that is not valid MDX is refused (VisualModeRefused with line:column) before anything
 * is mounted, so the page stays in source mode and no text is lost. `checkVisual(source)` answers
 * the same question without mounting.
 */
import { Editor } from '@tiptap/core';
import { parseBlocks, type ParseFailure } from '../../visual/blocks.js';
import { loadVisualDocument, setBaseline, sourceFromVisual } from '../../visual/document.js';
import type { PmNode } from '../../visual/pm-json.js';
import { visualExtensions } from './extensions.js';
import { MdxComponentWithView, RawBlockWithView } from './node-views.js';
import { buildToolbar, LinkShortcut } from './toolbar.js';
import './visual.css';

export class VisualModeRefused extends Error {
  constructor(readonly failure: ParseFailure) {
    super(`The visual mode cannot open this page: ${failure.line}:${failure.column} ${failure.message}`);
    this.name = 'VisualModeRefused';
  }
}

export interface VisualEditorHandle {
  getSource(): string;
  destroy(): void;
  /** The underlying Tiptap editor (focus, tests). */
  editor: Editor;
}

export function checkVisual(source: string): { ok: true } | { ok: false; error: ParseFailure } {
  const parsed = parseBlocks(source);
  return parsed.ok ? { ok: true } : { ok: false, error: parsed.error };
}

export function mountVisualEditor(
  el: HTMLElement,
  source: string,
  options: { onChange?: (source: string) => void } = {},
): VisualEditorHandle {
  const loaded = loadVisualDocument(source);
  if (!loaded.ok) throw new VisualModeRefused(loaded.error);
  const { session } = loaded;

  const toolbar = document.createElement('div');
  const surface = document.createElement('div');
  surface.className = 'visual-surface';
  el.replaceChildren(toolbar, surface);

  const editor = new Editor({
    element: surface,
    extensions: [...visualExtensions({ component: MdxComponentWithView, raw: RawBlockWithView }), LinkShortcut],
    content: loaded.json,
    // The CSP forbids inline <style>; Tiptap's base rules are in visual.css.
    injectCSS: false,
    editorProps: { attributes: { 'aria-label': 'Page content (visual)', role: 'textbox', 'aria-multiline': 'true', class: 'visual-content' } },
  });
  // The baseline is the document as the editor holds it: an untouched node compares equal by construction.
  setBaseline(session, editor.getJSON() as PmNode);
  const getSource = (): string => sourceFromVisual(session, editor.getJSON() as PmNode);

  const refresh = buildToolbar(toolbar, editor);
  refresh();
  editor.on('transaction', ({ transaction }) => {
    refresh();
    if (transaction.docChanged) options.onChange?.(getSource());
  });

  return {
    editor,
    getSource,
    destroy() {
      editor.destroy();
      el.replaceChildren();
    },
  };
}
