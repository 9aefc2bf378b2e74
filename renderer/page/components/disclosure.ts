/** Accordion / AccordionGroup and Expandable, on native <details>/<summary> (no script needed). */
import { escapeHtml } from '../html.js';
import type { ComponentRenderer } from './call.js';

export const disclosureComponents: Record<string, ComponentRenderer> = {
  Accordion: (c) => {
    const title = c.str('title') ?? '';
    const description = c.str('description');
    const icon = c.icon(c.str('icon'), 'c-accordion__icon');
    // Mintlify links to an accordion by its `id`, or else by its title slugged like a heading.
    const id = title || c.str('id') ? c.state.titleAnchor(title, c.str('id')) : undefined;
    return (
      `<details class="c-accordion"${id ? ` id="${id}"` : ''}${c.bool('defaultOpen') ? ' open' : ''}><summary class="c-accordion__summary">${icon}` +
      `<span class="c-accordion__title">${escapeHtml(title)}</span>` +
      (description ? `<span class="c-accordion__description">${escapeHtml(description)}</span>` : '') +
      `</summary><div class="c-accordion__body">${c.children('block')}</div></details>`
    );
  },
  AccordionGroup: (c) => `<div class="c-accordion-group">${c.children('block')}</div>`,
  Expandable: (c) => {
    const w = c.state.words;
    const title = c.str('title') ?? w.properties;
    return (
      `<details class="c-expandable"${c.bool('defaultOpen') ? ' open' : ''}><summary class="c-expandable__summary">` +
      `<span class="c-expandable__verb" data-hide="${escapeHtml(w.hide)}">${escapeHtml(w.show)}</span><span class="c-expandable__title">${escapeHtml(title)}</span></summary>` +
      `<div class="c-expandable__body">${c.children('block')}</div></details>`
    );
  },
};
