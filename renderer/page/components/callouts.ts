/** Note, Tip, Info, Warning, Check, Danger and the general Callout (icon, color). */
import { escapeHtml } from '../html.js';
import type { ComponentCall, ComponentRenderer } from './call.js';
import type { ContentStrings } from '../../i18n/content-strings.js';

const KINDS: Record<string, { icon: string; label: keyof ContentStrings }> = {
  Note: { icon: 'circle-info', label: 'note' },
  Info: { icon: 'circle-info', label: 'info' },
  Tip: { icon: 'lightbulb', label: 'tip' },
  Warning: { icon: 'triangle-exclamation', label: 'warning' },
  Check: { icon: 'circle-check', label: 'check' },
  Danger: { icon: 'circle-xmark', label: 'danger' },
};

function callout(c: ComponentCall, kind: string, themeIcon: string, label: string, color?: string): string {
  const style = color ? ` style="--callout-color:${escapeHtml(color)}"` : '';
  // An `icon` prop (a name or JSX) replaces the kind's own icon, which is the theme's.
  const own = c.icon(c.str('icon'), 'c-callout__icon-svg');
  const iconHtml = own || (c.str('icon') ? '' : c.themeIcon(themeIcon, 'c-callout__icon-svg'));
  return (
    `<div class="c-callout c-callout--${kind}" role="note" aria-label="${escapeHtml(label)}"${style}>` +
    (iconHtml ? `<span class="c-callout__icon">${iconHtml}</span>` : '') +
    `<div class="c-callout__content">${c.children()}</div></div>`
  );
}

export const calloutComponents: Record<string, ComponentRenderer> = {
  ...Object.fromEntries(
    Object.entries(KINDS).map(([name, k]) => [name, (c: ComponentCall) => callout(c, name.toLowerCase(), k.icon, c.state.words[k.label])]),
  ),
  Callout: (c) => callout(c, 'custom', 'circle-info', c.str('title') ?? 'Callout', c.color('color')),
};
