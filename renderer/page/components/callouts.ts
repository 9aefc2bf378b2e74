/** Note, Tip, Info, Warning, Check, Danger and the general Callout (icon, color). */
import { escapeHtml } from '../html.js';
import type { ComponentCall, ComponentRenderer } from './call.js';

const KINDS: Record<string, { icon: string; label: string }> = {
  Note: { icon: 'circle-info', label: 'Note' },
  Info: { icon: 'circle-info', label: 'Info' },
  Tip: { icon: 'lightbulb', label: 'Tip' },
  Warning: { icon: 'triangle-exclamation', label: 'Warning' },
  Check: { icon: 'circle-check', label: 'Check' },
  Danger: { icon: 'circle-xmark', label: 'Danger' },
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
    Object.entries(KINDS).map(([name, k]) => [name, (c: ComponentCall) => callout(c, name.toLowerCase(), k.icon, k.label)]),
  ),
  Callout: (c) => callout(c, 'custom', 'circle-info', c.str('title') ?? 'Callout', c.color('color')),
};
