/** Steps / Step (title, stepNumber, icon). */
import { escapeHtml } from '../html.js';
import type { ComponentCall, ComponentRenderer } from './call.js';

function step(c: ComponentCall, number: number): string {
  const title = c.str('title');
  const icon = c.icon(c.str('icon'), 'c-step__icon');
  const n = c.num('stepNumber') ?? number;
  return (
    `<li class="c-step"><span class="c-step__marker" aria-hidden="true">${icon || escapeHtml(String(n))}</span>` +
    `<div class="c-step__body">${title ? `<p class="c-step__title">${escapeHtml(title)}</p>` : ''}` +
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
