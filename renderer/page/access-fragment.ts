/**
 * Group-dependent parts of generated API pages (issue 40, create/personalization.mdx "OpenAPI
 * content filtering"): schema properties and `oneOf` variants with `x-mint.groups`, enum values
 * listed in `x-mint-enum`. The API page tree (openapi/page-tree.ts) puts them in internal elements
 * whose names no MDX source can write (they start with a NUL); here they become fragments wrapped
 * in reader-access markers (access/contract.ts `wrap`) when the export runs with reader access
 * on, and plain HTML, shown to everyone as before, when it does not. The extensions themselves
 * are never printed.
 */
import { requirementOf, wrap, type Requirement } from '../access/contract.js';
import { escapeHtml } from './html.js';
import type { PageState } from './state.js';
import type { ElementNode, Node } from './tree.js';

/** A fragment for readers in `groups` (attribute `groups`: comma-separated). */
export const ACCESS_ELEMENT = '\u0000access';
/** An enum's options line with restricted values (attribute `values`: JSON `[value, groups | null][]`). */
export const ENUM_ELEMENT = '\u0000enum';
/** The attribute of a `<Tab>` (a `oneOf` variant) carrying its groups; Tabs wraps its button and panel. */
export const TAB_GROUPS_ATTR = '\u0000groups';

/** True when the export writes reader-access markers (the bundle is enforced per reader). */
export const markersOn = (state: PageState): boolean => state.ctx.readerAccess === true;

export function accessElement(groups: readonly string[], children: Node[], block: boolean): ElementNode {
  return { kind: 'element', name: ACCESS_ELEMENT, attrs: [{ name: 'groups', value: { kind: 'string', value: groups.join(',') } }], children, line: 1, block, multiline: block };
}

export function enumElement(values: [string, string[] | null][]): ElementNode {
  return { kind: 'element', name: ENUM_ELEMENT, attrs: [{ name: 'values', value: { kind: 'string', value: JSON.stringify(values) } }], children: [], line: 1, block: true, multiline: true };
}

function attr(el: ElementNode, name: string): string {
  const a = el.attrs.find((x) => x.name === name);
  return a && a.value.kind === 'string' ? a.value.value : '';
}

export const requirementOfList = (list: string): Requirement => requirementOf({ groups: list.split(',') });

/** `inner`: the children rendered as the caller renders them. */
export function renderAccessElement(el: ElementNode, state: PageState, inner: () => string): string {
  const html = inner();
  const groups = attr(el, 'groups');
  return markersOn(state) && groups !== '' ? wrap(requirementOfList(groups), html) : html;
}

/**
 * `Available options: a, b, c`, each restricted value (and the comma before it) in a fragment of
 * its own, so that removing any of them leaves the list well punctuated. Values everyone sees
 * come first when the first value is restricted.
 */
export function renderEnumElement(el: ElementNode, state: PageState): string {
  let values: [string, string[] | null][];
  try {
    values = JSON.parse(attr(el, 'values')) as [string, string[] | null][];
  } catch {
    return '';
  }
  const on = markersOn(state);
  const ordered = on ? [...values.filter((v) => !v[1]), ...values.filter((v) => v[1])] : values;
  const parts = ordered.map(([value, groups], i) => {
    const item = `${i === 0 ? '' : ', '}<code>${escapeHtml(value)}</code>`;
    return on && groups && groups.length > 0 ? wrap(requirementOf({ groups }), item) : item;
  });
  return `<p>Available options: ${parts.join('')}</p>`;
}
