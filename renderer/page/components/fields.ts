/** ParamField (query/path/body/header, type, required, default, deprecated) and ResponseField. */
import { escapeHtml } from '../html.js';
import type { Literal } from '../literal.js';
import { kebabName } from '../slug.js';
import type { ComponentCall, ComponentRenderer } from './call.js';

const LOCATIONS = ['query', 'path', 'body', 'header', 'cookie'] as const;

function defaultText(value: Literal): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

/**
 * Mintlify's anchor for a field: `param-` and the kebab-cased name, after the names of the
 * fields it is nested in (through Expandable): `param-background-color-light`. ResponseField
 * uses `param-` as well, as Mintlify's own links (`#param-thumbnails-background`) show.
 */
function field(c: ComponentCall, kind: 'param' | 'response', name: string | undefined, location?: string): string {
  const type = c.str('type');
  const word = name ? kebabName(name) : '';
  const custom = c.str('id');
  const id = custom ? c.state.titleAnchor('', custom) : word ? c.state.anchor(`param-${[...c.state.fieldPath, word].join('-')}`) : undefined;
  // Generated API pages: the anchor Mintlify's own generated pages give the field (openapi/page-tree.ts).
  const mint = c.str('mintAnchor');
  const alias = id && mint ? ` id="${c.state.anchor(mint)}"` : '';
  const head =
    (id ? `<a class="c-field__anchor"${alias} href="#${id}" aria-hidden="true" tabindex="-1"></a>` : '') +
    (name ? `<code class="c-field__name">${escapeHtml(name)}</code>` : '') +
    (type ? `<span class="c-field__type">${escapeHtml(type)}</span>` : '') +
    (location ? `<span class="c-field__location">${escapeHtml(location)}</span>` : '') +
    (c.bool('required') ? `<span class="c-field__badge c-field__badge--required">${escapeHtml(c.state.words.required)}</span>` : '') +
    (c.bool('deprecated') ? `<span class="c-field__badge c-field__badge--deprecated">${escapeHtml(c.state.words.deprecated)}</span>` : '') +
    (c.has('default') && c.props['default'] !== undefined
      ? `<span class="c-field__default">${escapeHtml(c.state.words.defaultValue)}: <code>${escapeHtml(defaultText(c.props['default']))}</code></span>`
      : '');
  let body = '';
  if (c.el.children.length > 0) {
    if (word) c.state.fieldPath.push(word);
    try {
      body = `<div class="c-field__body">${c.children('block')}</div>`;
    } finally {
      if (word) c.state.fieldPath.pop();
    }
  }
  return `<div class="c-field c-field--${kind}"${id ? ` id="${id}"` : ''}><div class="c-field__head">${head}</div>${body}</div>`;
}

export const fieldComponents: Record<string, ComponentRenderer> = {
  ParamField: (c) => {
    const location = LOCATIONS.find((l) => c.str(l) !== undefined);
    const name = location ? c.str(location) : (c.str('name') ?? c.str('param'));
    return field(c, 'param', name, location);
  },
  ResponseField: (c) => field(c, 'response', c.str('name')),
};
