/** The few pages reader sign-in shows itself: no script but the JWT callback's, which is a same-origin file (the site CSP allows `script-src 'self'`). */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${esc(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:12vh auto;padding:0 1rem;color:#111}h1{font-size:1.4rem}input,button{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;margin:.25rem 0}a.choice{display:block;padding:.6rem;border:1px solid #ccc;border-radius:6px;margin:.5rem 0;text-decoration:none;color:inherit}.error{color:#a00}</style>
</head><body>
${body}
</body></html>
`;
}

export function passwordPage(siteName: string, redirect: string, error?: string): string {
  return page(`Sign in · ${siteName}`, `<h1>${esc(siteName)}</h1>
<p>This documentation needs a password.</p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}<form method="post" action="/login">
<input type="hidden" name="redirect" value="${esc(redirect)}">
<label>Password <input type="password" name="password" autocomplete="current-password" required autofocus></label>
<button type="submit">Sign in</button>
</form>`);
}

export function chooserPage(siteName: string, choices: { name: string; href: string }[]): string {
  return page(`Sign in · ${siteName}`, `<h1>${esc(siteName)}</h1>
<p>Choose how to sign in.</p>
${choices.map((c) => `<a class="choice" href="${esc(c.href)}">${esc(c.name)}</a>`).join('\n')}`);
}

/** The JWT handoff's landing page: its script reads the fragment (which never reaches a server) and posts it. */
export function jwtCallbackPage(siteName: string, redirect: string): string {
  return page(`Signing in · ${siteName}`, `<p>Signing in…</p>
<form id="da-jwt" method="post" action="/login/jwt-callback?redirect=${esc(encodeURIComponent(redirect))}"><input type="hidden" name="token"></form>
<noscript><p class="error">Signing in needs JavaScript.</p></noscript>
<script src="/_/reader/jwt-callback.js"></script>`);
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

export function failedPage(siteName: string, message: string): string {
  return page(`Sign-in failed · ${siteName}`, `<h1>Sign-in failed</h1>
<p class="error" role="alert">${esc(message)}</p>
<p><a href="/login">Sign in again</a></p>`);
}
