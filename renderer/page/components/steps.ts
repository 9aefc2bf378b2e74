/** Steps / Step (title, stepNumber, icon, id, noAnchor, titleSize). */
import { escapeHtml } from '../html.js';
import type { ComponentCall, ComponentRenderer } from './call.js';

const TITLE_TAGS = new Set(['p', 'h2', 'h3', 'h4']);

/**
 * Each titled step gets an id as Mintlify gives it: its `id` prop, or the slug of its title
 * (the heading rules, counted with the page's headings), so `#install-the-cli` reaches it.
 */
function step(c: ComponentCall, number: number): string {
  const title = c.str('title');
  const icon = c.icon(c.str('icon'), 'c-step__icon');
  const n = c.num('stepNumber') ?? number;
  const id = title || c.str('id') ? c.state.titleAnchor(title ?? '', c.str('id')) : undefined;
  const size = c.str('titleSize');
  const tag = size && TITLE_TAGS.has(size) ? size : 'p';
  const anchor = id && !c.bool('noAnchor') ? `<a class="c-step__anchor" href="#${id}" aria-hidden="true" tabindex="-1"></a>` : '';
  return (
    `<li class="c-step"${id ? ` id="${id}"` : ''}><span class="c-step__marker" aria-hidden="true">${icon || escapeHtml(String(n))}</span>` +
    `<div class="c-step__body">${title ? `<${tag} class="c-step__title">${anchor}${escapeHtml(title)}</${tag}>` : ''}` +
    `<div class="c-step__content">${c.children()}</div></div></li>`
  );
}

export const stepComponents: Record<string, ComponentRenderer> = {
  Steps: (c) => {
    const items = c.childElements('Step').map((el, i) => step(c.sub(el), i + 1));
    return `<ol class="c-steps">${items.join('')}</ol>`;
  },
  // A Step on its own (outside Steps) still renders as a one-item list.
  Step: (c) => `<ol class="c-steps">${step(c, 1)}</ol>`,
};
