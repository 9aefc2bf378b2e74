/**
 * Color (variant compact | table), Color.Row (title) and Color.Item (name, value): swatches
 * with their value, which a click copies (the page's copy-button script). A value may be
 * `{ light, dark }`: the swatch follows the theme and both values are shown. Only plain CSS
 * colours reach the style attribute; anything else shows as text without a swatch colour.
 */
import { escapeHtml } from '../html.js';
import type { Literal } from '../literal.js';
import { SAFE_COLOR_RE, type ComponentCall, type ComponentRenderer } from './call.js';

function safe(v: Literal | undefined): string | undefined {
  return typeof v === 'string' && SAFE_COLOR_RE.test(v.trim()) ? v.trim() : undefined;
}

// The swatch's name for screen readers in the page's language ("Copy #16A34A"); a `$` in the value stays text.
function item(c: ComponentCall): string {
  const name = c.str('name');
  const raw = c.props['value'];
  let light: string | undefined;
  let dark: string | undefined;
  let shown: string;
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const pair = raw as Record<string, Literal>;
    light = safe(pair['light']);
    dark = safe(pair['dark']) ?? light;
    shown = [pair['light'], pair['dark']].filter((v): v is string => typeof v === 'string').join(' / ');
  } else {
    shown = c.str('value') ?? '';
    light = dark = safe(shown);
  }
  const style = light ? ` style="--swatch-light:${escapeHtml(light)};--swatch-dark:${escapeHtml(dark ?? light)}"` : '';
  return (
    `<div class="c-color__item" data-code-block><button type="button" class="c-color__swatch" data-copy-code aria-label="${escapeHtml(c.state.words.copyValue.replace('{value}', () => shown))}"${style}>` +
    `<span class="c-code__copy-status" aria-live="polite"></span></button>` +
    (name ? `<span class="c-color__name">${escapeHtml(name)}</span>` : '') +
    `<code class="c-color__value" data-copy-source>${escapeHtml(shown)}</code></div>`
  );
}

function row(c: ComponentCall): string {
  const title = c.str('title');
  const items = c.childElements('Color.Item').map((el) => item(c.sub(el)));
  return `<div class="c-color__row">${title ? `<p class="c-color__row-title">${escapeHtml(title)}</p>` : ''}<div class="c-color__items">${items.join('')}</div></div>`;
}

export const colorComponents: Record<string, ComponentRenderer> = {
  Color: (c) => {
    const variant = c.str('variant') === 'table' ? 'table' : 'compact';
    const parts = c.childElements('Color.Row', 'Color.Item').map((el) => (el.name === 'Color.Row' ? row(c.sub(el)) : item(c.sub(el))));
    const body = variant === 'compact' ? `<div class="c-color__items">${parts.join('')}</div>` : parts.join('');
    return `<div class="c-color c-color--${variant}">${body}</div>`;
  },
  'Color.Row': (c) => `<div class="c-color c-color--table">${row(c)}</div>`,
  'Color.Item': (c) => `<div class="c-color c-color--compact"><div class="c-color__items">${item(c)}</div></div>`,
};
