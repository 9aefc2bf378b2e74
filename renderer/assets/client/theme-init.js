/*
 * Runs synchronously in <head>, before the first paint, so a dark-mode reader never sees a white
 * flash. Loaded as a file (the site's CSP allows no inline script). Order of precedence:
 * a strict site appearance, then the reader's saved choice, then the site default, then the OS.
 */
(function () {
  var root = document.documentElement;
  var appearance = root.getAttribute('data-appearance') || 'system';
  var strict = root.getAttribute('data-appearance-strict') === 'true';
  var saved = null;
  if (!strict) {
    try {
      saved = window.localStorage.getItem('docs-theme');
    } catch (e) {
      saved = null; // storage blocked (privacy mode): fall back to the defaults
    }
  }
  var theme;
  if (saved === 'light' || saved === 'dark') theme = saved;
  else if (appearance === 'light' || appearance === 'dark') theme = appearance;
  else theme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  root.setAttribute('data-theme', theme);
  // A banner the reader dismissed stays hidden, without flashing in first (site.css hides it).
  var banner = root.getAttribute('data-banner');
  if (banner) {
    try {
      if (window.localStorage.getItem('docs-banner-dismissed') === banner) root.setAttribute('data-banner-dismissed', '');
    } catch (e) {
      // storage blocked: the banner shows on each page
    }
  }
})();
