/**
 * Tabs / Tab, CodeGroup, RequestExample / ResponseExample: ARIA tabs (tablist, tab, tabpanel)
 * made interactive by assets/client/components.js; without script the first panel shows.
 */
import { wrap, type Requirement } from '../../access/contract.js';
import { markersOn, requirementOfList, TAB_GROUPS_ATTR } from '../access-fragment.js';
import { escapeHtml } from '../html.js';
import { codeFrame } from '../markdown.js';
import { copyButton } from '../copy-button.js';
import { BLOCK_CLOSE, BLOCK_OPEN, type CodeSlot } from '../state.js';
import type { ComponentCall, ComponentRenderer } from './call.js';

export interface TabItem {
  label: string;
  icon?: string;
  panel: string;
  /** For readers of these groups only (an OpenAPI `oneOf` variant's `x-mint.groups`, reader access on). */
  access?: Requirement;
}

const CODE_SLOT_RE = new RegExp(`${BLOCK_OPEN}(\\d+)${BLOCK_CLOSE}`, 'g');

/** The tablist buttons and panels; `headerExtra` goes in the tab bar (a copy button). */
export function tabsMarkup(c: ComponentCall, items: TabItem[], className: string, headerExtra = ''): string {
  const base = c.uid('tabs');
  const buttons = items
    .map((item, i) => {
      const selected = i === 0;
      const button = (
        `<button type="button" role="tab" class="c-tabs__tab" id="${base}-tab-${i}" aria-controls="${base}-panel-${i}" ` +
        `aria-selected="${selected}" tabindex="${selected ? 0 : -1}">${item.icon ?? ''}${escapeHtml(item.label)}</button>`
      );
      return item.access ? wrap(item.access, button) : button;
    })
    .join('');
  const panels = items
    .map(
      (item, i) => {
        const panel = `<div class="c-tabs__panel" role="tabpanel" id="${base}-panel-${i}" aria-labelledby="${base}-tab-${i}" tabindex="0"${i === 0 ? '' : ' hidden'}>${item.panel}</div>`;
        return item.access ? wrap(item.access, panel) : panel;
      },
    )
    .join('');
  return `<div class="c-tabs ${className}" data-tabs><div class="c-tabs__bar"><div class="c-tabs__list" role="tablist">${buttons}</div>${headerExtra}</div>${panels}</div>`;
}

/** The code blocks rendered among a component's children, in order, with the code each holds as written. */
function codeBlocks(c: ComponentCall): { blocks: CodeSlot[]; code: string[]; html: string } {
  const html = c.children('block');
  const blocks: CodeSlot[] = [];
  const code: string[] = [];
  CODE_SLOT_RE.lastIndex = 0;
  for (let m = CODE_SLOT_RE.exec(html); m; m = CODE_SLOT_RE.exec(html)) {
    const slot = c.state.slots[Number(m[1])];
    if (slot?.code) {
      blocks.push(slot.code);
      code.push(slot.text);
    }
  }
  return { blocks, code, html };
}

/**
 * A group of code blocks. Its plain text is its labels and its code as written, given to the page
 * (setElementText) rather than read back out of thousands of highlighting tags: an API page's six
 * request examples cost 0.18 ms a page that way.
 */
function codeGroup(c: ComponentCall, extraClass = '', label = ''): string {
  const { blocks, code, html } = codeBlocks(c);
  if (blocks.length === 0) return `<div class="c-code-group ${extraClass}">${html}</div>`;
  const only = blocks.length === 1 ? blocks[0] : undefined;
  const labels = only ? [only.title ?? only.lang] : blocks.map((b, i) => b.title ?? (b.lang || `Tab ${i + 1}`));
  c.state.setElementText(c.el, [label, ...labels, ...code].filter(Boolean).join('\n'));
  if (only) {
    return `<div class="c-code-group ${extraClass}">${codeFrame(only.inner, only.title ?? only.lang, only.title !== undefined, c.state.words)}</div>`;
  }
  const items = blocks.map((b, i) => ({ label: labels[i] as string, panel: b.inner }));
  return `<div class="c-code c-code-group ${extraClass}" data-code-block>${tabsMarkup(c, items, 'c-tabs--code', copyButton(c.state.words, c.state.words.copyCode))}</div>`;
}

function example(c: ComponentCall, kind: 'request' | 'response', label: string): string {
  return `<aside class="c-example c-example--${kind}" aria-label="${escapeHtml(label)}"><p class="c-example__label">${escapeHtml(label)}</p>${codeGroup(c, '', label)}</aside>`;
}

export const tabComponents: Record<string, ComponentRenderer> = {
  Tabs: (c) => {
    const items = c.childElements('Tab').map((el, i) => {
      const tab = c.sub(el);
      const icon = tab.icon(tab.str('icon'), 'c-tabs__icon');
      // Only generated API pages set the groups attribute (its name starts with NUL, no MDX can write it).
      const groups = markersOn(c.state) ? el.attrs.find((a) => a.name === TAB_GROUPS_ATTR) : undefined;
      const access = groups && groups.value.kind === 'string' ? { access: requirementOfList(groups.value.value) } : {};
      return { label: tab.str('title') ?? `Tab ${i + 1}`, ...(icon ? { icon } : {}), panel: tab.children('block'), ...access };
    });
    return tabsMarkup(c, items, 'c-tabs--content');
  },
  // A Tab outside Tabs: a labelled section.
  Tab: (c) => `<section class="c-tab-alone"><p class="c-tab-alone__title">${escapeHtml(c.str('title') ?? '')}</p>${c.children('block')}</section>`,
  CodeGroup: (c) => codeGroup(c),
  // The column's label in the page's language (hand-written and generated API pages alike).
  RequestExample: (c) => example(c, 'request', c.state.apiWords.requestExample),
  ResponseExample: (c) => example(c, 'response', c.state.apiWords.responseExample),
};
