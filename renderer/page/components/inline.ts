/** Inline components: Tooltip (tip), Badge (color, size, shape, icon), Icon (icon, size, color), Link (href). */
import { escapeHtml } from '../html.js';
import type { ComponentRenderer } from './call.js';

const BADGE_COLORS = new Set(['gray', 'blue', 'green', 'yellow', 'orange', 'red', 'purple', 'white', 'surface', 'white-destructive', 'surface-destructive']);

export const inlineComponents: Record<string, ComponentRenderer> = {
  /**
   * `<Link href>` (Next's link, which Mintlify pages use without importing it, as mem0's do inline
   * in paragraphs): a link like a Markdown one, its href resolved to the bundle's page URL.
   */
  Link: (c) => {
    const raw = c.str('href');
    const href = c.href(raw);
    const inner = c.children('inline');
    if (href === undefined) return inner;
    const external = /^https?:\/\//i.test(href);
    const title = c.str('title');
    return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}${external ? ' rel="noopener noreferrer"' : ''}>${inner}</a>`;
  },
  Tooltip: (c) => {
    const tip = c.str('tip') ?? c.str('headline') ?? '';
    const id = c.uid('tip');
    const href = c.href(c.str('href'));
    const cta = c.str('cta');
    return (
      `<span class="c-tooltip"><span class="c-tooltip__trigger" tabindex="0" aria-describedby="${id}">${c.children('inline')}</span>` +
      `<span class="c-tooltip__bubble" role="tooltip" id="${id}">${escapeHtml(tip)}` +
      (href && cta ? ` <a href="${escapeHtml(href)}">${escapeHtml(cta)}</a>` : '') +
      `</span></span>`
    );
  },
  Badge: (c) => {
    const color = c.str('color') ?? 'gray';
    const cls = ['c-badge', `c-badge--${BADGE_COLORS.has(color) ? color : 'gray'}`];
    const size = c.str('size');
    if (size && /^(?:xs|sm|md|lg)$/.test(size)) cls.push(`c-badge--${size}`);
    if (c.str('shape') === 'pill') cls.push('c-badge--pill');
    const icon = c.icon(c.str('icon'), 'c-badge__icon');
    return `<span class="${cls.join(' ')}">${icon}${c.children('inline')}</span>`;
  },
  Icon: (c) => {
    const name = c.str('icon') ?? c.str('src');
    const svg = c.icon(name, 'c-icon');
    if (!svg) {
      // c.icon warned about a name it does not know; an Icon with neither prop is named here.
      if (name === undefined && !c.jsxAttr('icon')) c.warn('unknown-icon', '<Icon> has neither an icon nor a src');
      return '';
    }
    const size = c.num('size');
    const color = c.color('color');
    const style = [size ? `--icon-size:${size}px` : '', color ? `color:${color}` : ''].filter(Boolean).join(';');
    return `<span class="c-icon-inline"${style ? ` style="${escapeHtml(style)}"` : ''}>${svg}</span>`;
  },
};
