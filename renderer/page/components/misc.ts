/** Update (changelog entry), View, Visibility, Panel, Prompt. */
import { escapeHtml } from '../html.js';
import { copyButton } from '../copy-button.js';
import type { ComponentCall, ComponentRenderer } from './call.js';

function tags(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === 'string');
  if (typeof value === 'string') return value.split(',').map((t) => t.trim()).filter(Boolean);
  return [];
}

export const miscComponents: Record<string, ComponentRenderer> = {
  Update: (c) => {
    const label = c.str('label') ?? '';
    const description = c.str('description');
    const tagList = tags(c.props['tags']);
    // Changelog labels show in the page's table of contents, as on Mintlify.
    const marker = c.state.heading({ depth: 2, base: '', custom: false, text: label, inToc: c.state.componentDepth === 1 && label !== '' });
    return (
      `<section class="c-update" id="${marker}"><div class="c-update__meta"><p class="c-update__label">${escapeHtml(label)}</p>` +
      (description ? `<p class="c-update__description">${escapeHtml(description)}</p>` : '') +
      (tagList.length ? `<ul class="c-update__tags">${tagList.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>` : '') +
      `</div><div class="c-update__body">${c.children('block')}</div></section>`
    );
  },
  View: (c) => {
    const title = c.str('title') ?? '';
    const icon = c.icon(c.str('icon'), 'c-view__icon');
    return (
      `<section class="c-view" data-view="${escapeHtml(title)}" aria-label="${escapeHtml(title)}">` +
      `<p class="c-view__label">${icon}${escapeHtml(title)}</p>${c.children('block')}</section>`
    );
  },
  Visibility: (c) => {
    const audience = c.str('for') ?? 'humans';
    return audience === 'agents' ? '' : `<div class="c-visibility">${c.children()}</div>`;
  },
  Panel: (c) => `<aside class="c-panel">${c.children('block')}</aside>`,
  Prompt: (c) => {
    const description = c.str('description');
    return (
      `<div class="c-prompt" data-code-block><div class="c-prompt__header">${c.icon(c.str('icon'), 'c-prompt__icon')}<span class="c-prompt__description">${escapeHtml(description ?? c.state.words.prompt)}</span>` +
      `${copyButton(c.state.words, c.state.words.copyPrompt)}</div>` +
      `<div class="c-prompt__body" data-copy-source>${c.children('block')}</div></div>`
    );
  },
};
