/*
 * The page menu (docs.json `contextual`, renderer/layout/contextual-menu.ts): "Copy page" copies the
 * page's Markdown (`<page>.md` of the same site); a custom link with `$page` gets it in its URL.
 * The list is a <details>: closed by Escape, by a click elsewhere, and after an action.
 */
(function () {
  'use strict';
  // components.js (loaded before this file on every page) copies for the code blocks too.
  function copyText(text) {
    return typeof window.docsCopyText === 'function' ? window.docsCopyText(text) : Promise.reject(new Error('no copy'));
  }

  function setup(root) {
    var md = root.getAttribute('data-md');
    var status = root.querySelector('[data-contextual-status]');
    var label = root.querySelector('[data-contextual-label]');
    var more = root.querySelector('details');
    var pending;
    function markdown() {
      if (!pending) {
        pending = fetch(md, { credentials: 'same-origin' }).then(function (r) {
          if (!r.ok) throw new Error('HTTP ' + r.status);
          return r.text();
        });
        pending.catch(function () { pending = undefined; });
      }
      return pending;
    }
    var timer;
    function say(text) {
      if (status) status.textContent = text;
      if (label && root.querySelector('.contextual-face[data-contextual-action="copy"]')) {
        var original = label.getAttribute('data-original') || label.textContent;
        label.setAttribute('data-original', original);
        label.textContent = text;
        clearTimeout(timer);
        timer = setTimeout(function () { label.textContent = original; if (status) status.textContent = ''; }, 2000);
      }
    }
    function close() { if (more) more.open = false; }
    root.addEventListener('click', function (event) {
      var el = event.target instanceof Element ? event.target.closest('[data-contextual-action]') : null;
      if (!el || !root.contains(el)) return;
      var action = el.getAttribute('data-contextual-action');
      if (action === 'copy') {
        event.preventDefault();
        markdown().then(copyText).then(function () { say('Copied'); }, function () { say('Could not copy the page'); });
        close();
      } else if (action === 'open') {
        event.preventDefault();
        var template = el.getAttribute('data-href-template') || '';
        var win = window.open('about:blank', '_blank');
        markdown().then(function (text) {
          var url = template.split('$page').join(encodeURIComponent(text));
          if (win) { win.opener = null; win.location.href = url; } else window.location.href = url;
        }, function () { if (win) win.close(); say('Could not read the page'); });
        close();
      }
    });
    document.addEventListener('click', function (event) {
      if (more && more.open && !(event.target instanceof Node && more.contains(event.target))) more.open = false;
    });
    document.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && more && more.open) {
        more.open = false;
        var summary = more.querySelector('summary');
        if (summary) summary.focus();
      }
    });
  }

  document.querySelectorAll('[data-contextual]').forEach(setup);
})();
