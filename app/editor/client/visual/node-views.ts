/**
 * Node views of the visual mode: a Mintlify component shows its name and a field per string
 * attribute above its editable children; a raw block is its MDX in an editable code box.
 * Both write back with setNodeMarkup, so the change is one undoable transaction.
 */
import type { NodeViewRenderer, NodeViewRendererProps } from '@tiptap/core';
import { MdxComponent, RawBlock } from './extensions.js';

interface JsxAttribute {
  type: string;
  name?: string;
  value?: unknown;
}

function updateAttrs(props: NodeViewRendererProps, patch: Record<string, unknown>): void {
  const pos = typeof props.getPos === 'function' ? props.getPos() : undefined;
  if (typeof pos !== 'number') return;
  const { view } = props.editor;
  const node = view.state.doc.nodeAt(pos);
  if (!node) return;
  view.dispatch(view.state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...patch }));
}

const componentView: NodeViewRenderer = (props) => {
  let node = props.node;
  const dom = document.createElement('div');
  dom.className = 'mdx-component';
  const header = document.createElement('div');
  header.className = 'mdx-component-header';
  header.contentEditable = 'false';
  const contentDOM = document.createElement('div');
  contentDOM.className = 'mdx-component-body';
  dom.append(header, contentDOM);

  const render = (): void => {
    dom.dataset.component = String(node.attrs.name);
    header.replaceChildren();
    const label = document.createElement('span');
    label.className = 'mdx-component-name';
    label.textContent = String(node.attrs.name);
    header.append(label);
    const attributes = (node.attrs.attributes as JsxAttribute[]) ?? [];
    attributes.forEach((attr, index) => {
      // Only plain string attributes get a field; expressions stay as written.
      if (attr.type !== 'mdxJsxAttribute' || typeof attr.value !== 'string' || !attr.name) return;
      const field = document.createElement('label');
      field.className = 'mdx-attr';
      field.textContent = attr.name;
      const input = document.createElement('input');
      input.type = 'text';
      input.value = attr.value;
      input.setAttribute('aria-label', `${String(node.attrs.name)} ${attr.name}`);
      input.addEventListener('change', () => {
        const next = attributes.map((a, i) => (i === index ? { ...a, value: input.value } : a));
        updateAttrs(props, { attributes: next });
      });
      field.append(input);
      header.append(field);
    });
  };
  render();
  return {
    dom,
    contentDOM,
    update(updated) {
      if (updated.type !== node.type) return false;
      const headerChanged = updated.attrs.name !== node.attrs.name || JSON.stringify(updated.attrs.attributes) !== JSON.stringify(node.attrs.attributes);
      node = updated;
      if (headerChanged && !header.contains(document.activeElement)) render();
      return true;
    },
    stopEvent: (event) => header.contains(event.target as globalThis.Node),
    ignoreMutation: (mutation) => header.contains(mutation.target),
  };
};

const rawView: NodeViewRenderer = (props) => {
  let node = props.node;
  const dom = document.createElement('div');
  dom.className = 'mdx-raw';
  dom.contentEditable = 'false';
  const label = document.createElement('span');
  label.className = 'mdx-raw-label';
  label.textContent = `MDX (${String(node.attrs.label)}) — edited as source`;
  const area = document.createElement('textarea');
  area.spellcheck = false;
  area.value = String(node.attrs.text);
  area.rows = Math.min(20, area.value.split('\n').length);
  area.setAttribute('aria-label', `Raw MDX block (${String(node.attrs.label)})`);
  area.addEventListener('input', () => updateAttrs(props, { text: area.value }));
  dom.append(label, area);
  return {
    dom,
    update(updated) {
      if (updated.type !== node.type) return false;
      node = updated;
      if (area.value !== updated.attrs.text) area.value = String(updated.attrs.text);
      return true;
    },
    stopEvent: (event) => event.target === area,
    ignoreMutation: () => true,
  };
};

export const MdxComponentWithView = MdxComponent.extend({ addNodeView: () => componentView });
export const RawBlockWithView = RawBlock.extend({ addNodeView: () => rawView });
