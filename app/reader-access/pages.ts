/**
 * The few pages reader sign-in shows itself, dressed as the site (site-look.ts) and in its
 * language (renderer/i18n/sign-in-strings.ts). They load nothing but two same-origin scripts the
 * site CSP's `script-src 'self'` allows: the theme choice (/_/reader/theme.js, the site's own
 * theme-init.js) and the JWT callback's. Styles are inline, the logo a `data:` URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromeStrings, type ChromeStrings } from '../../renderer/i18n/chrome-strings.js';
import { packageRoot } from '../../renderer/theme/package-root.js';
import type { SiteLook } from './site-look.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The site's words for the pages: its language's row. */
export const signInStrings = (look: SiteLook): ChromeStrings => chromeStrings(look.lang);

// The site theme's tokens (renderer/assets/client/site.css), the few this page uses.
const LIGHT = '--bg:#f8f9fa;--card:#ffffff;--fg:#101318;--muted:#5f6672;--border:#e7e9ec;--field:#ffffff;--error:#b42318;--error-bg:#fef3f2;--p:var(--brand);--p-strong:var(--brand-dark);--on-p:#ffffff;color-scheme:light';
const DARK = '--bg:#0c0e12;--card:#14171c;--fg:#eceef1;--muted:#a0a7b2;--border:rgba(255,255,255,.1);--field:#0c0e12;--error:#fda29b;--error-bg:rgba(240,68,56,.12);--p:var(--brand-light);--p-strong:var(--brand-light);--on-p:#0c0e12;color-scheme:dark';
const STYLE =
  `*{box-sizing:border-box}html{background:var(--bg)}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:2rem 1rem;background:var(--bg);color:var(--fg);font:16px/1.55 ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue','Noto Sans',Arial,sans-serif}` +
  `main{width:100%;max-width:24rem;background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:2rem;box-shadow:0 12px 32px -12px rgba(16,19,24,.18)}` +
  `.brand{display:flex;align-items:center;gap:.5rem;margin:0 0 1.5rem;font-weight:600;font-size:1.05rem}.brand img{height:2rem;max-width:100%}.logo-dark{display:none}[data-theme=dark] .logo-light{display:none}[data-theme=dark] .logo-dark{display:block}` +
  `h1{font-size:1.35rem;line-height:1.3;margin:0 0 .35rem}p{margin:.25rem 0 1rem;color:var(--muted)}` +
  `label{display:block;font-size:.875rem;font-weight:500;margin:0 0 .35rem}input[type=password]{display:block;width:100%;font:inherit;padding:.55rem .75rem;border:1px solid var(--border);border-radius:.5rem;background:var(--field);color:var(--fg);margin:0 0 1rem}input:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid var(--p);outline-offset:2px}` +
  `button{display:block;width:100%;font:inherit;font-weight:600;padding:.6rem 1rem;border:0;border-radius:.5rem;background:var(--p-strong);color:var(--on-p);cursor:pointer}button:hover{filter:brightness(1.08)}` +
  `a{color:var(--p)}a.choice{display:flex;justify-content:space-between;align-items:center;padding:.7rem .9rem;border:1px solid var(--border);border-radius:.5rem;margin:.5rem 0;text-decoration:none;color:var(--fg);font-weight:500}a.choice:hover{border-color:var(--p)}a.choice::after{content:'\\203A';color:var(--muted);font-size:1.2rem}[dir=rtl] a.choice::after{content:'\\2039'}` +
  `.error{color:var(--error);background:var(--error-bg);border-radius:.5rem;padding:.6rem .75rem}`;

function page(look: SiteLook, title: string, body: string, script?: string): string {
  const b = look.brand;
  // With no script (or before it runs) a non-strict "system" site follows the OS; theme.js then applies the reader's saved choice.
  const dataTheme = look.appearance === 'system' ? '' : ` data-theme="${look.appearance}"`;
  const system = look.appearance === 'system' && !look.strict ? `@media (prefers-color-scheme:dark){html:not([data-theme]){${DARK}}}` : '';
  const brand = look.logo
    ? `<img class="logo-light" src="${esc(look.logo.light)}" alt="${esc(look.name)}"><img class="logo-dark" src="${esc(look.logo.dark)}" alt="${esc(look.name)}">`
    : `<span>${esc(look.name)}</span>`;
  return `<!doctype html>
<html lang="${esc(look.lang)}"${look.dir ? ` dir="${look.dir}"` : ''}${dataTheme} data-appearance="${look.appearance}"${look.strict ? ' data-appearance-strict="true"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<meta name="color-scheme" content="${look.strict && look.appearance !== 'system' ? look.appearance : 'light dark'}">
<title>${esc(title)} · ${esc(look.name)}</title>
<script src="/_/reader/theme.js"></script>
<style>:root{--brand:${b.primary};--brand-light:${b.light};--brand-dark:${b.dark};${LIGHT}}[data-theme=dark]{${DARK}}${system}${STYLE}</style>
</head><body>
<main>
<div class="brand">${brand}</div>
${body}
</main>
${script ? `<script src="${script}"></script>\n` : ''}</body></html>
`;
}

export function passwordPage(look: SiteLook, redirect: string, error?: string): string {
  const t = signInStrings(look);
  return page(look, t.signIn, `<h1>${esc(t.signIn)}</h1>
<p>${esc(t.passwordNeeded)}</p>
${error ? `<p class="error" role="alert">${esc(error)}</p>\n` : ''}<form method="post" action="/login">
<input type="hidden" name="redirect" value="${esc(redirect)}">
<label for="da-password">${esc(t.password)}</label>
<input id="da-password" type="password" name="password" autocomplete="current-password" required autofocus>
<button type="submit">${esc(t.signIn)}</button>
</form>`);
}

export function chooserPage(look: SiteLook, choices: { name: string; href: string }[]): string {
  const t = signInStrings(look);
  return page(look, t.signIn, `<h1>${esc(t.signIn)}</h1>
<p>${esc(t.chooseSignIn)}</p>
${choices.map((c) => `<a class="choice" href="${esc(c.href)}">${esc(c.name)}</a>`).join('\n')}`);
}

/** The JWT handoff's landing page: its script reads the fragment (which never reaches a server) and posts it. */
export function jwtCallbackPage(look: SiteLook, redirect: string): string {
  const t = signInStrings(look);
  return page(
    look,
    t.signingIn,
    `<p>${esc(t.signingIn)}</p>
<form id="da-jwt" method="post" action="/login/jwt-callback?redirect=${esc(encodeURIComponent(redirect))}"><input type="hidden" name="token"></form>
<noscript><p class="error">${esc(t.needsJavaScript)}</p></noscript>`,
    '/_/reader/jwt-callback.js',
  );
}

/** The callback page's script: the token out of the address bar (and history) at once, then posted. */
export const JWT_CALLBACK_SCRIPT = `(function () {
  var token = location.hash.slice(1);
  history.replaceState(null, '', location.pathname + location.search);
  var form = document.getElementById('da-jwt');
  if (!token || !form) { location.replace('/login'); return; }
  form.elements.token.value = token;
  form.submit();
})();
`;

let themeScript: string | undefined;

/** The site's own theme-init.js (the reader's saved light/dark choice, else the site default, else the OS), read once. */
export function themeInitScript(): string {
  themeScript ??= fs.readFileSync(path.join(packageRoot(), 'renderer', 'assets', 'client', 'theme-init.js'), 'utf8');
  return themeScript;
}

export function failedPage(look: SiteLook, message: string): string {
  const t = signInStrings(look);
  return page(look, t.signInFailed, `<h1>${esc(t.signInFailed)}</h1>
<p class="error" role="alert">${esc(message)}</p>
<p><a href="/login">${esc(t.signInAgain)}</a></p>`);
}
