import type { RequestHandler } from 'express';

/**
 * The console's own policy: its stylesheet, its one script and its own images (inline SVG charts
 * are part of the document), forms posting only to itself, no framing. It replaces the API's
 * `default-src 'none'` on console responses only; JSON routes keep theirs.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function consoleHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    // Pages show keys once and an operator's data: never from a shared cache or the back button.
    res.setHeader('Cache-Control', 'no-store');
    // Links out (pull requests) carry no console URL; same-origin requests keep their Origin
    // header (with no-referrer Chromium sends `Origin: null` on form posts, which CSRF refuses).
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  };
}
