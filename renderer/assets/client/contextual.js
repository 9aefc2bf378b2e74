/*
 * The page menu (docs.json `contextual`, renderer/layout/contextual-menu.ts): "Copy page" copies the
 * page's Markdown (`<page>.md` of the same site); a custom link with `$page` gets it in its URL.
 * The list is a <details>: closed by Escape, by a click elsewhere, and after an action.
 *
 * Options that need the appliance (its MCP server, its assistant) are hidden until the appliance's
 * status says it offers them; on a static host that request fails and they stay hidden. The MCP
 * server's URL is this page's origin plus the path the status gives, so the links and commands
 * name whatever host the reader reached the site by.
 */
(function () {
  'use strict';

  // The words in the page's language: words.js, put in front of this file (renderer/theme/assets.ts).
  var t = docsWord;
  // components.js (loaded before this file on every page) copies for the code blocks too.
  function copyText(text) {
    return typeof window.docsCopyText === 'function' ? window.docsCopyText(text) : Promise.reject(new Error('no copy'));
  }

  /** The appliance's status, asked once per page (assistant.js may have asked already). */
  function applianceStatus() {
    if (!window.docsApplianceStatus) {
      window.docsApplianceStatus = fetch('/_/assistant', { headers: { accept: 'application/json' } })
        .then(function (r) { return r.ok ? r.json() : {}; })
        .catch(function () { return {}; });
    }
    return window.docsApplianceStatus.then(function (s) { return s && typeof s === 'object' ? s : {}; });
  }

  function base64(text) {
    return btoa(String.fromCharCode.apply(null, Array.from(new TextEncoder().encode(text))));
  }

  /** What each MCP option copies or opens, for the server at `url`. */
  function mcpTarget(option, url, name) {
    if (option === 'mcp') return { copy: url };
    if (option === 'add-mcp') return { copy: 'npx add-mcp ' + url };
    if (option === 'cursor') return { open: 'cursor://anysphere.cursor-deeplink/mcp/install?name=' + encodeURIComponent(name) + '&config=' + encodeURIComponent(base64(JSON.stringify({ url: url }))) };
    // VS Code's own URL handler: no redirect through a web site outside the network.
    return { open: 'vscode:mcp/install?' + encodeURIComponent(JSON.stringify({ name: name, type: 'http', url: url })) };
  }

  function setup(root) {
    var md = root.getAttribute('data-md');
    var mcpName = root.getAttribute('data-mcp-name') || 'docs';
    var mcpUrl = '';
    if (root.querySelector('[data-contextual-requires]') || root.hasAttribute('data-contextual-requires')) {
      applianceStatus().then(function (s) {
        var offered = { mcp: typeof s.mcp === 'string' && s.mcp.charAt(0) === '/', assistant: s.enabled === true };
        if (offered.mcp) mcpUrl = location.origin + s.mcp;
        var wanted = root.getAttribute('data-contextual-requires');
        if (wanted && offered[wanted]) root.hidden = false;
        if (mcpUrl) {
          root.querySelectorAll('[data-contextual-install]').forEach(function (a) {
            a.href = mcpTarget(a.getAttribute('data-contextual-install'), mcpUrl, mcpName).open;
          });
        }
        root.querySelectorAll('li[data-contextual-requires]').forEach(function (li) {
          if (offered[li.getAttribute('data-contextual-requires')]) li.hidden = false;
        });
        promoteFirst();
      });
    }

    /**
     * The face is the first option in the config's order, as on the hosted page. The page is
     * written with the first one every host can offer, so an option shown before it can only be
     * one that needs the appliance: that one becomes the face. (A menu of such options only was
     * written with its first as the face already.)
     */
    function promoteFirst() {
      if (root.hasAttribute('data-contextual-requires')) return;
      var first = root.querySelector('.contextual-list li:not([hidden])');
      var face = root.querySelector('.contextual-face');
      var item = first && first.querySelector('.contextual-item');
      if (!face || !item || !first.hasAttribute('data-contextual-requires')) return;
      var promoted = item.cloneNode(true);
      promoted.className = 'contextual-face';
      var label = document.createElement('span');
      label.setAttribute('data-contextual-label', '');
      label.textContent = item.querySelector('.contextual-title').textContent;
      promoted.querySelector('.contextual-text').replaceWith(label);
      face.replaceWith(promoted);
    }

    var status = root.querySelector('[data-contextual-status]');
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
      var label = root.querySelector('[data-contextual-label]');
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
      // An install link opens the editor by its own URL scheme; the list closes behind it.
      if (event.target instanceof Element && event.target.closest('[data-contextual-install]')) close();
      var el = event.target instanceof Element ? event.target.closest('[data-contextual-action]') : null;
      if (!el || !root.contains(el)) return;
      var action = el.getAttribute('data-contextual-action');
      if (action === 'copy') {
        event.preventDefault();
        markdown().then(copyText).then(function () { say(t('copied')); }, function () { say(t('copyFailed')); });
        close();
      } else if (action === 'open') {
        event.preventDefault();
        var template = (el.getAttribute('data-href-template') || '').split('$mcp').join(encodeURIComponent(mcpUrl));
        var win = window.open('about:blank', '_blank');
        (template.indexOf('$page') === -1 ? Promise.resolve('') : markdown()).then(function (text) {
          var url = template.split('$page').join(encodeURIComponent(text));
          if (win) { win.opener = null; win.location.href = url; } else window.location.href = url;
        }, function () { if (win) win.close(); say(t('readFailed')); });
        close();
      } else if (action === 'assistant') {
        event.preventDefault();
        close();
        if (window.docsAssistant) window.docsAssistant.open();
      } else if (mcpUrl && (action === 'mcp' || action === 'add-mcp')) {
        event.preventDefault();
        copyText(mcpTarget(action, mcpUrl, mcpName).copy).then(function () { say(t('copied')); }, function () { say(t('copyFailed')); });
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
