import { portableHref } from '../page-urls.js';

/** HTML escaping for the few strings the layout assembles outside ejs `<%= %>`. */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Links from the customer's config (navbar, footer, global links) are shown as <a href>; only
 * web, mail and in-site URLs are allowed so a config cannot smuggle `javascript:` into every page.
 * An in-site path is written in the bundle's portable form (`/x` → `/x/`, renderer/page-urls.ts).
 */
export function safeHref(href: string): string {
  const trimmed = href.trim();
  if (/^(https?:|mailto:|tel:)/i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return '#';
  if (trimmed.startsWith('#') || trimmed.startsWith('?') || trimmed.startsWith('//')) return trimmed;
  return portableHref(trimmed.startsWith('/') ? trimmed : '/' + trimmed.replace(/^\.\//, ''));
}

export function isExternalHref(href: string): boolean {
  return /^(https?:)?\/\//i.test(href.trim());
}
