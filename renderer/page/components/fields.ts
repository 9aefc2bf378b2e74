/** ParamField (query/path/body/header, type, required, default, deprecated) and ResponseField. */
import { escapeHtml } from '../html.js';
import type { Literal } from '../literal.js';
import type { ComponentCall, ComponentRenderer } from './call.js';

const LOCATIONS = ['query', 'path', 'body', 'header', 'cookie'] as const;

function defaultText(value: Literal): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

function field(c: ComponentCall, kind: 'param' | 'response', name: string | undefined, location?: string): string {
  const type = c.str('type');
  const head =
    (name ? `<code class="c-field__name">${escapeHtml(name)}</code>` : '') +
    (type ? `<span class="c-field__type">${escapeHtml(type)}</span>` : '') +
    (location ? `<span class="c-field__location">${escapeHtml(location)}</span>` : '') +
    (c.bool('required') ? '<span class="c-field__badge c-field__badge--required">required</span>' : '') +
    (c.bool('deprecated') ? '<span class="c-field__badge c-field__badge--deprecated">deprecated</span>' : '') +
    (c.has('default') && c.props['default'] !== undefined
      ? `<span class="c-field__default">default: <code>${escapeHtml(defaultText(c.props['default']))}</code></span>`
      : '');
  const body = c.el.children.length > 0 ? `<div class="c-field__body">${c.children('block')}</div>` : '';
  return `<div class="c-field c-field--${kind}"><div class="c-field__head">${head}</div>${body}</div>`;
}

export const fieldComponents: Record<string, ComponentRenderer> = {
  ParamField: (c) => {
    const location = LOCATIONS.find((l) => c.str(l) !== undefined);
    const name = location ? c.str(location) : (c.str('name') ?? c.str('param'));
    return field(c, 'param', name, location);
  },
  ResponseField: (c) => field(c, 'response', c.str('name')),
};
