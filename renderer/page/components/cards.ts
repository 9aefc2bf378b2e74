/** Card (title, icon, href, img, horizontal, cta, arrow), CardGroup and Columns (cols). */
import { escapeHtml } from '../html.js';
import { outsideImagePlaceholder } from '../outside-media.js';
import type { ComponentCall, ComponentRenderer } from './call.js';

function card(c: ComponentCall): string {
  const title = c.str('title');
  const href = c.href(c.str('href'));
  const img = c.image(c.str('img'));
  const color = c.color('color');
  const icon = c.icon(c.str('icon'), 'c-card__icon-svg');
  const cta = c.str('cta');
  const classes = ['c-card'];
  if (c.bool('horizontal')) classes.push('c-card--horizontal');
  if (href) classes.push('c-card--link');
  const external = href !== undefined && /^https?:\/\//i.test(href);
  const linkAttrs = href ? ` href="${escapeHtml(href)}"${external ? ' rel="noopener noreferrer"' : ''}` : '';
  // The title is the link; CSS stretches it over the card, so links inside the content stay valid.
  const titleHtml = title
    ? `<p class="c-card__title">${href ? `<a class="c-card__link"${linkAttrs}>${escapeHtml(title)}</a>` : escapeHtml(title)}</p>`
    : href
      ? `<a class="c-card__link c-card__link--untitled"${linkAttrs}><span class="c-sr-only">${escapeHtml(cta ?? 'Open')}</span></a>`
      : '';
  const body = c.el.children.length > 0 ? `<div class="c-card__content">${c.children()}</div>` : '';
  return (
    `<div class="${classes.join(' ')}">` +
    (img ? (outsideImagePlaceholder(c.state, img, title ?? '', { linked: false, className: 'c-card__img' }) ?? `<img class="c-card__img" src="${escapeHtml(img)}" alt="" loading="lazy">`) : '') +
    (icon ? `<span class="c-card__icon"${color ? ` style="color:${escapeHtml(color)}"` : ''}>${icon}</span>` : '') +
    `<div class="c-card__body">${titleHtml}${body}` +
    (cta ? `<span class="c-card__cta" aria-hidden="true">${escapeHtml(cta)}</span>` : '') +
    `</div></div>`
  );
}

function group(c: ComponentCall, kind: string): string {
  const cols = Math.min(Math.max(Math.round(c.num('cols') ?? 2), 1), 6);
  return `<div class="c-card-group c-${kind}" style="--cols:${cols}">${c.children('block')}</div>`;
}

export const cardComponents: Record<string, ComponentRenderer> = {
  Card: card,
  CardGroup: (c) => group(c, 'card-group--cards'),
  Columns: (c) => group(c, 'columns'),
  Column: (c) => `<div class="c-column">${c.children()}</div>`,
};
