/**
 * Source mode: CodeMirror 6 with MDX as Markdown plus its HTML/JSX tags, fenced code in the usual
 * languages, component and frontmatter completions, search (Mod-F), and the preview's errors as
 * lint diagnostics. Keys are CodeMirror's defaults, which cover the source-mode list of
 * Mintlify's keyboard-shortcuts page (move/copy line, add cursor above/below, toggle comment).
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { bracketMatching, foldGutter, foldKeymap, HighlightStyle, indentOnInput, LanguageDescription, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { crosshairCursor, drawSelection, dropCursor, EditorView, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars, keymap, lineNumbers, rectangularSelection } from '@codemirror/view';
import type { PreviewError } from './api.js';
import { mdxCompletions } from './completions.js';

const codeLanguages = [
  LanguageDescription.of({ name: 'javascript', alias: ['js', 'jsx', 'mjs'], support: javascript({ jsx: true }) }),
  LanguageDescription.of({ name: 'typescript', alias: ['ts', 'tsx'], support: javascript({ jsx: true, typescript: true }) }),
  LanguageDescription.of({ name: 'json', alias: ['jsonc'], support: json() }),
  LanguageDescription.of({ name: 'css', support: css() }),
  LanguageDescription.of({ name: 'html', alias: ['xml', 'svg'], support: html() }),
];

/** Colours from the page's CSS variables, so light and dark follow the console's theme. */
const theme = EditorView.theme({
  '&': { height: '100%', backgroundColor: 'var(--card)', color: 'var(--fg)' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', caretColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent) 8%, transparent)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'color-mix(in srgb, var(--accent) 30%, transparent)' },
  '&.cm-focused': { outline: '3px solid var(--focus)' },
});

/** Token colours from the same variables: CodeMirror's default style has too little contrast on the dark theme. */
const highlight = HighlightStyle.define([
  { tag: t.heading, fontWeight: '700', color: 'var(--fg)' },
  { tag: [t.strong], fontWeight: '700' },
  { tag: [t.emphasis], fontStyle: 'italic' },
  { tag: [t.link, t.url], color: 'var(--accent)', textDecoration: 'underline' },
  { tag: [t.tagName, t.angleBracket], color: 'var(--accent)' },
  { tag: [t.attributeName, t.propertyName], color: 'var(--focus)' },
  { tag: [t.string, t.attributeValue], color: 'var(--ok)' },
  { tag: [t.keyword, t.bool, t.number], color: 'var(--danger)' },
  { tag: [t.comment, t.meta, t.processingInstruction, t.contentSeparator], color: 'var(--muted)' },
  { tag: t.monospace, fontFamily: 'ui-monospace, monospace', color: 'var(--ok)' },
]);

export interface SourceEditor {
  view: EditorView;
  getSource(): string;
  setSource(source: string): void;
  setReadOnly(readOnly: boolean): void;
  /** Show the preview's errors for this file as diagnostics (others are listed beside the text only). */
  setErrors(errors: PreviewError[], path: string): void;
  focus(): void;
  destroy(): void;
}

export function createSourceEditor(parent: HTMLElement, options: { label: string; nonce?: string; onChange(source: string): void }): SourceEditor {
  const readOnly = new Compartment();
  const extensions: Extension[] = [
    lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(), foldGutter(), drawSelection(), dropCursor(),
    EditorState.allowMultipleSelections.of(true), indentOnInput(), syntaxHighlighting(highlight),
    bracketMatching(), closeBrackets(), autocompletion({ override: [mdxCompletions] }), rectangularSelection(), crosshairCursor(),
    highlightActiveLine(), highlightSelectionMatches(), lintGutter(), EditorView.lineWrapping,
    markdown({ base: markdownLanguage, codeLanguages }),
    // MDX has no HTML comments (`<!-- -->` is a syntax error there): Mod-/ writes `{/* */}`.
    markdownLanguage.data.of({ commentTokens: { block: { open: '{/*', close: '*/}' } } }),
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...completionKeymap, indentWithTab]),
    readOnly.of(EditorState.readOnly.of(false)),
    theme,
    EditorView.contentAttributes.of({ 'aria-label': options.label, 'aria-multiline': 'true' }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) options.onChange(u.state.doc.toString());
    }),
  ];
  if (options.nonce) extensions.push(EditorView.cspNonce.of(options.nonce));
  const view = new EditorView({ parent, state: EditorState.create({ doc: '', extensions }) });
  return {
    view,
    getSource: () => view.state.doc.toString(),
    setSource(source) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: source }, selection: { anchor: 0 } });
    },
    setReadOnly(value) {
      view.dispatch({ effects: readOnly.reconfigure(EditorState.readOnly.of(value)) });
    },
    setErrors(errors, path) {
      const doc = view.state.doc;
      const diagnostics: Diagnostic[] = errors
        .filter((e) => e.file === path && e.line >= 1 && e.line <= doc.lines)
        .map((e) => {
          const line = doc.line(e.line);
          const from = Math.min(line.to, line.from + Math.max(0, (e.column ?? 1) - 1));
          return { from, to: Math.max(from, line.to), severity: 'error', message: e.message, source: 'preview' };
        });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
