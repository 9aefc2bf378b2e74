/**
 * The visual mode's Tiptap schema: StarterKit's prose nodes plus the attributes the way back to
 * MDX needs (the block a node came from, list tightness, a code fence's meta), an inline image,
 * Mintlify components with editable children, and a raw block for MDX with no visual form.
 *
 * No node views here, so the schema also builds in node (`getSchema`), where
 * scripts/editor-roundtrip.ts checks the load → save path without a browser.
 */
import { Extension, Node, mergeAttributes, type AnyExtension } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';

const BLOCK_TYPES = ['paragraph', 'heading', 'bulletList', 'orderedList', 'codeBlock', 'blockquote', 'horizontalRule', 'mdxComponent', 'rawBlock'];

/** Attributes kept in the document only (never in HTML): they exist for the way back to MDX. */
const MdxAttributes = Extension.create({
  name: 'mdxAttributes',
  addGlobalAttributes() {
    return [
      { types: BLOCK_TYPES, attributes: { blockIndex: { default: null, rendered: false, keepOnSplit: false } } },
      { types: ['bulletList', 'orderedList', 'listItem'], attributes: { spread: { default: false, rendered: false } } },
      { types: ['codeBlock'], attributes: { meta: { default: null, rendered: false } } },
    ];
  },
});

export const InlineImage = Node.create({
  name: 'image',
  inline: true,
  group: 'inline',
  atom: true,
  draggable: true,
  addAttributes() {
    return { src: { default: '' }, alt: { default: null }, title: { default: null } };
  },
  parseHTML() {
    return [{ tag: 'img[src]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['img', mergeAttributes({ class: 'mdx-image' }, HTMLAttributes)];
  },
});

/** A Mintlify component (Note, Card, Tabs, Tab, Steps, Step, Accordion, ...) with block children. */
export const MdxComponent = Node.create({
  name: 'mdxComponent',
  group: 'block',
  content: 'block*',
  defining: true,
  addAttributes() {
    return { name: { default: 'Note', rendered: false }, attributes: { default: [], rendered: false } };
  },
  parseHTML() {
    return [{ tag: 'div[data-mdx-component]' }];
  },
  renderHTML({ node }) {
    return ['div', { 'data-mdx-component': String(node.attrs.name) }, 0];
  },
});

/** MDX with no visual form (tables, imports, expressions, unknown components): edited as text. */
export const RawBlock = Node.create({
  name: 'rawBlock',
  group: 'block',
  atom: true,
  selectable: true,
  addAttributes() {
    return { text: { default: '', rendered: false }, label: { default: 'mdx', rendered: false } };
  },
  parseHTML() {
    return [{ tag: 'pre[data-raw-mdx]', getAttrs: (el) => ({ text: (el as HTMLElement).textContent ?? '' }) }];
  },
  renderHTML({ node }) {
    return ['pre', { 'data-raw-mdx': String(node.attrs.label) }, String(node.attrs.text)];
  },
});

/** The browser passes the same nodes with their node views attached (node-views.ts). */
export function visualExtensions(views: { component?: AnyExtension; raw?: AnyExtension } = {}): AnyExtension[] {
  return [
    StarterKit.configure({
      // A trailing empty paragraph would be a change nobody made.
      trailingNode: false,
      // Underline has no Markdown form.
      underline: false,
      link: { openOnClick: false, autolink: false },
    }),
    MdxAttributes,
    InlineImage,
    views.component ?? MdxComponent,
    views.raw ?? RawBlock,
  ];
}
