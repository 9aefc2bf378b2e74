/**
 * The visual mode's toolbar: labelled buttons (aria-label + title naming the shortcut) for
 * headings, bold, italic, code, link, lists and inserting a callout. The shortcuts themselves are
 * StarterKit's (Mod-B, Mod-I, Mod-E, Mod-Alt-1..3, Mod-Shift-8/7) plus Mod-K for a link.
 */
import { Extension, type Editor } from '@tiptap/core';
import { CALLOUTS } from '../../visual/pm-json.js';

export function promptLink(editor: Editor): boolean {
  const current = (editor.getAttributes('link').href as string | undefined) ?? '';
  const href = window.prompt('Link address (empty removes the link)', current);
  if (href === null) return false;
  if (href === '') return editor.chain().focus().extendMarkRange('link').unsetLink().run();
  return editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
}

export const LinkShortcut = Extension.create({
  name: 'linkShortcut',
  addKeyboardShortcuts() {
    return { 'Mod-k': () => promptLink(this.editor) };
  },
});

export function insertCallout(editor: Editor, name: string): boolean {
  return editor
    .chain()
    .focus()
    .insertContent({ type: 'mdxComponent', attrs: { name, attributes: [] }, content: [{ type: 'paragraph' }] })
    .run();
}

interface ButtonSpec {
  label: string;
  text: string;
  keys?: string;
  run: (editor: Editor) => boolean;
  active?: (editor: Editor) => boolean;
}

const BUTTONS: ButtonSpec[] = [
  { label: 'Heading 1', text: 'H1', keys: 'Mod-Alt-1', run: (e) => e.chain().focus().toggleHeading({ level: 1 }).run(), active: (e) => e.isActive('heading', { level: 1 }) },
  { label: 'Heading 2', text: 'H2', keys: 'Mod-Alt-2', run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run(), active: (e) => e.isActive('heading', { level: 2 }) },
  { label: 'Heading 3', text: 'H3', keys: 'Mod-Alt-3', run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run(), active: (e) => e.isActive('heading', { level: 3 }) },
  { label: 'Bold', text: 'B', keys: 'Mod-B', run: (e) => e.chain().focus().toggleBold().run(), active: (e) => e.isActive('bold') },
  { label: 'Italic', text: 'I', keys: 'Mod-I', run: (e) => e.chain().focus().toggleItalic().run(), active: (e) => e.isActive('italic') },
  { label: 'Inline code', text: '</>', keys: 'Mod-E', run: (e) => e.chain().focus().toggleCode().run(), active: (e) => e.isActive('code') },
  { label: 'Link', text: 'Link', keys: 'Mod-K', run: promptLink, active: (e) => e.isActive('link') },
  { label: 'Bulleted list', text: '• List', keys: 'Mod-Shift-8', run: (e) => e.chain().focus().toggleBulletList().run(), active: (e) => e.isActive('bulletList') },
  { label: 'Numbered list', text: '1. List', keys: 'Mod-Shift-7', run: (e) => e.chain().focus().toggleOrderedList().run(), active: (e) => e.isActive('orderedList') },
  { label: 'Code block', text: '{ }', keys: 'Mod-Alt-C', run: (e) => e.chain().focus().toggleCodeBlock().run(), active: (e) => e.isActive('codeBlock') },
];

function keyHint(keys: string): string {
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  return keys.replace('Mod', mac ? '⌘' : 'Ctrl').replace('Alt', mac ? '⌥' : 'Alt');
}

/** Build the toolbar; returns a refresh function (active states) to call on every transaction. */
export function buildToolbar(container: HTMLElement, editor: Editor): () => void {
  container.className = 'visual-toolbar';
  container.setAttribute('role', 'toolbar');
  container.setAttribute('aria-label', 'Formatting');
  const buttons: [HTMLButtonElement, ButtonSpec][] = [];
  for (const spec of BUTTONS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = spec.text;
    const hint = spec.keys ? ` (${keyHint(spec.keys)})` : '';
    button.setAttribute('aria-label', spec.label + hint);
    button.title = spec.label + hint;
    // mousedown would take the selection out of the editor before the command runs.
    button.addEventListener('mousedown', (event) => event.preventDefault());
    button.addEventListener('click', () => spec.run(editor));
    container.append(button);
    buttons.push([button, spec]);
  }
  const callout = document.createElement('select');
  callout.setAttribute('aria-label', 'Insert callout');
  callout.title = 'Insert callout';
  const placeholder = new Option('Insert callout…', '');
  callout.append(placeholder, ...CALLOUTS.map((name) => new Option(name, name)));
  callout.addEventListener('change', () => {
    if (callout.value) insertCallout(editor, callout.value);
    callout.value = '';
  });
  container.append(callout);
  return () => {
    for (const [button, spec] of buttons) button.setAttribute('aria-pressed', String(!!spec.active?.(editor)));
  };
}
