/**
 * What the preview adds to the page the renderer produced: the error banner, the forced
 * appearance, and the page shown when nothing has rendered yet. Inline styles only: the site's
 * policy allows inline styles and no inline script (renderer/csp.ts).
 */
import { escapeHtml } from '../../renderer/layout/escape.js';

export interface LocatedError {
  file: string;
  line: number;
  column?: number;
  message: string;
}

export const locationOf = (e: LocatedError): string => `${e.file}:${e.line}${e.column ? `:${e.column}` : ''}`;

const BANNER_STYLE =
  'position:sticky;top:0;z-index:2147483647;margin:0;padding:10px 16px;background:#fef2f2;color:#7f1d1d;border-bottom:2px solid #dc2626;font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap';

function bannerHtml(errs: readonly LocatedError[]): string {
  const items = errs.map((e) => `<li><strong>${escapeHtml(locationOf(e))}</strong>: ${escapeHtml(e.message)}</li>`).join('');
  return `<div role="alert" data-preview-errors="${errs.length}" style="${BANNER_STYLE}"><p style="margin:0 0 4px;font-weight:600">This preview shows the last version that rendered. Fix:</p><ul style="margin:0;padding-left:20px">${items}</ul></div>`;
}

/** The page with the errors above its content (after `<body …>`). */
export function errorBanner(html: string, errs: readonly LocatedError[]): string {
  const body = /<body\b[^>]*>/i.exec(html);
  if (!body) return bannerHtml(errs) + html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + bannerHtml(errs) + html.slice(at);
}

/** A page for when nothing of this page has rendered yet (the banner carries the errors). */
export function errorPage(errs: readonly LocatedError[]): string {
  const what = errs.length > 0 ? 'This page does not render yet.' : 'Nothing to preview.';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>Preview</title></head><body style="margin:0;font:16px/1.5 system-ui,sans-serif"><main style="padding:24px"><p>${what}</p></main></body></html>`;
}

/**
 * The exported site picks its theme in theme-init.js: a strict site appearance first, then the
 * reader's saved choice. The editor's light/dark switch sets that strict appearance, so the page
 * renders as the site's own dark (or light) mode; absent, the site's toggle works as published.
 */
export function forceAppearance(html: string, dark: boolean | undefined): string {
  if (dark === undefined) return html;
  const theme = dark ? 'dark' : 'light';
  // Put first in the tag: of two copies of an attribute the parser keeps the first, and the tag's
  // own attributes need no parsing (its data-strings JSON may hold any character).
  const open = /<html\b/i.exec(html);
  if (!open) return html;
  const at = open.index + open[0].length;
  return `${html.slice(0, at)} data-theme="${theme}" data-appearance="${theme}" data-appearance-strict="true"${html.slice(at)}`;
}
