/*
 * Client-side search: a modal dialog over a prebuilt MiniSearch index, loaded on first use.
 * Analytics: committed searches and result clicks are posted to /_/events (see
 * docs/site-layout.md, "What counts as a search"); when no appliance is behind the site the
 * beacon fails silently.
 */
/*
 * What counts as one search (docs/site-layout.md, "What counts as a search"), free of the DOM so
 * it can be tested alone: typing only arms a 1 s timer; the timer, Enter or a click commits; the
 * same normalised query is not reported twice in a row while the dialog stays open; a click
 * commits its query first, then reports the click.
 */
(function (root) {
  'use strict';

  function tidy(query) {
    return String(query).trim().replace(/\s+/g, ' ');
  }

  function normalise(query) {
    return tidy(query).toLowerCase();
  }

  /**
   * options: send(body), count(query) → number of matches, sessionId() → string,
   * delay (ms), setTimeout, clearTimeout.
   */
  root.docsSearchReporter = function (options) {
    var lastSent = null; // normalised query last reported during this open of the dialog
    var timer = null;

    function cancel() {
      if (timer !== null) options.clearTimeout(timer);
      timer = null;
    }

    function commit(query) {
      cancel();
      var normal = normalise(query);
      if (!normal || normal === lastSent) return false;
      lastSent = normal;
      options.send({ type: 'search', query: tidy(query), resultCount: options.count(tidy(query)), sessionId: options.sessionId() });
      return true;
    }

    return {
      /** The dialog opened: a new round, the previous query may count again. */
      open: function () {
        cancel();
        lastSent = null;
      },
      /** The dialog closed before the pause: the query was abandoned, not searched. */
      close: cancel,
      /** The results for `query` are on screen; it counts if the reader pauses on it. */
      typed: function (query) {
        cancel();
        if (!normalise(query)) return;
        timer = options.setTimeout(function () {
          timer = null;
          commit(query);
        }, options.delay);
      },
      enter: commit,
      click: function (query, path) {
        commit(query);
        if (normalise(query)) options.send({ type: 'click', query: tidy(query), path: path, sessionId: options.sessionId() });
      },
    };
  };
})(window);

(function () {
  'use strict';

  var script = document.currentScript;
  var MINISEARCH_URL = script && script.getAttribute('data-minisearch');
  var INDEX_URL = (script && script.getAttribute('data-index')) || '/_search/index.json';
  var EVENTS_URL = '/_/events';
  var COMMIT_DELAY_MS = 1000;
  var MAX_RESULTS = 10;
  var SNIPPET_RESULTS = 6;
  var SNIPPET_BREAKS = 'p, li, h1, h2, h3, h4, h5, h6, div, td, th, dt, dd, blockquote, summary, figcaption, br, tr, span, code, button, label';

  // Must equal SEARCH_INDEX_OPTIONS in renderer/search-options.ts (a test compares them).
  // search-options:begin
  var SEARCH_OPTIONS = { idField: 'url', fields: ['title', 'headings', 'text'], storeFields: ['title', 'url', 'section'], searchOptions: { boost: { title: 3, headings: 2 }, prefix: true, fuzzy: 0.2 } };
  // search-options:end

  var dialog = document.getElementById('search-dialog');
  var input = document.getElementById('search-input');
  var list = document.getElementById('search-results');
  var status = document.getElementById('search-status');
  if (!dialog || !input || !list || !status) return;

  var indexPromise = null;
  var results = [];
  var totalFound = 0; // matches for the query on screen (results holds only the first few)
  var activeIndex = -1;
  var searchIndex = null; // the loaded MiniSearch instance, once available
  var snippetTimer = null;
  var pageTexts = {};
  var renderToken = 0;

  // ---- analytics -------------------------------------------------------------------------

  function sessionId() {
    var key = 'docs-search-session';
    try {
      var existing = window.sessionStorage.getItem(key);
      if (existing) return existing;
    } catch (e) {
      // No storage: a fresh id per page is the best we can do.
    }
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    var id = Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
    try {
      window.sessionStorage.setItem(key, id);
    } catch (e) {
      // ignore
    }
    return id;
  }

  function send(body) {
    var json = JSON.stringify(body);
    try {
      if (navigator.sendBeacon && navigator.sendBeacon(EVENTS_URL, new Blob([json], { type: 'application/json' }))) return;
      if (window.fetch) {
        window.fetch(EVENTS_URL, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: json,
          keepalive: true,
          credentials: 'same-origin',
        }).catch(function () { /* static host without the appliance: ignore */ });
      }
    } catch (e) {
      // Analytics must never break search.
    }
  }

  function tidy(query) {
    return query.trim().replace(/\s+/g, ' ');
  }

  var reporter = window.docsSearchReporter({
    send: send,
    count: function (query) {
      return searchIndex ? searchIndex.search(query).length : totalFound;
    },
    sessionId: sessionId,
    delay: COMMIT_DELAY_MS,
    setTimeout: function (fn, ms) { return window.setTimeout(fn, ms); },
    clearTimeout: function (id) { window.clearTimeout(id); },
  });

  // The page's canonical path: results link `/x/` (what a static server finds), analytics count `/x`.
  function pathOf(url) {
    return url.replace(/^https?:\/\/[^/]+/, '').replace(/[?#].*$/, '').replace(/\/+$/, '') || '/';
  }

  // ---- index -----------------------------------------------------------------------------

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      if (window.MiniSearch) return resolve(window.MiniSearch);
      if (!src) return reject(new Error('search library missing'));
      var el = document.createElement('script');
      el.src = src;
      el.onload = function () { window.MiniSearch ? resolve(window.MiniSearch) : reject(new Error('search library failed')); };
      el.onerror = function () { reject(new Error('search library failed to load')); };
      document.head.appendChild(el);
    });
  }

  function loadIndex() {
    if (!indexPromise) {
      indexPromise = Promise.all([
        loadScript(MINISEARCH_URL),
        window.fetch(INDEX_URL, { credentials: 'same-origin' }).then(function (res) {
          if (!res.ok) throw new Error('search index unavailable (' + res.status + ')');
          return res.text();
        }),
      ]).then(function (parts) {
        searchIndex = parts[0].loadJSON(parts[1], SEARCH_OPTIONS);
        return searchIndex;
      });
      indexPromise.catch(function () { indexPromise = null; });
    }
    return indexPromise;
  }

  // ---- results ---------------------------------------------------------------------------

  function setActive(index) {
    var items = list.children;
    if (activeIndex >= 0 && items[activeIndex]) items[activeIndex].setAttribute('aria-selected', 'false');
    activeIndex = index;
    if (index >= 0 && items[index]) {
      items[index].setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', items[index].id);
      items[index].scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function render(query, found) {
    results = found.slice(0, MAX_RESULTS);
    totalFound = found.length;
    list.textContent = '';
    activeIndex = -1;
    input.removeAttribute('aria-activedescendant');
    results.forEach(function (result, i) {
      var item = el('li', 'search-result');
      item.id = 'search-result-' + i;
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', 'false');
      var link = el('a', 'search-result-link');
      link.href = result.url;
      link.tabIndex = -1;
      var head = el('span', 'search-result-head');
      if (result.section) head.appendChild(el('span', 'search-result-section', result.section));
      head.appendChild(el('span', 'search-result-title', result.title || result.url));
      link.appendChild(head);
      link.appendChild(el('span', 'search-result-snippet'));
      link.addEventListener('click', function () { reporter.click(query, pathOf(result.url)); });
      item.appendChild(link);
      item.addEventListener('mousemove', function () { if (activeIndex !== i) setActive(i); });
      list.appendChild(item);
    });
    input.setAttribute('aria-expanded', results.length > 0 ? 'true' : 'false');
    if (!tidy(query)) status.textContent = '';
    else if (totalFound === 0) status.textContent = 'No results for \u201c' + tidy(query) + '\u201d';
    else status.textContent = totalFound === 1 ? '1 result' : totalFound > results.length ? 'Top ' + results.length + ' of ' + totalFound + ' results' : totalFound + ' results';
    if (results.length > 0) setActive(0);
    scheduleSnippets(query);
  }

  function search(query) {
    var token = ++renderToken;
    if (!tidy(query)) {
      render('', []);
      reporter.typed('');
      return;
    }
    loadIndex().then(function (index) {
      if (token !== renderToken) return;
      render(query, index.search(tidy(query)));
      reporter.typed(query);
    }, function () {
      if (token !== renderToken) return;
      list.textContent = '';
      status.textContent = 'Search is not available for this site.';
    });
  }

  // The index keeps no page text (it stays small), so snippets come from the pages themselves:
  // fetched for the top results once typing pauses, parsed inertly, cached per URL.
  function pageText(url) {
    if (pageTexts[url]) return pageTexts[url];
    pageTexts[url] = window.fetch(url, { credentials: 'same-origin' }).then(function (res) {
      if (!res.ok) throw new Error(String(res.status));
      return res.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, 'text/html');
      var content = doc.getElementById('page-content') || doc.body;
      if (content) {
        // Prose makes better snippets than code; and block boundaries must not glue words.
        var drop = content.querySelectorAll('pre, script, style, svg, .mermaid');
        for (var d = 0; d < drop.length; d++) drop[d].remove();
        var blocks = content.querySelectorAll(SNIPPET_BREAKS);
        for (var b = 0; b < blocks.length; b++) blocks[b].after(doc.createTextNode(' '));
      }
      var description = doc.querySelector('meta[name="description"]');
      return {
        text: (content ? content.textContent || '' : '').replace(/\s+/g, ' ').replace(/ ([,.;:!?)])(?=\s|$)/g, '$1').trim(),
        description: description ? description.getAttribute('content') || '' : '',
      };
    }).catch(function () {
      delete pageTexts[url];
      return { text: '', description: '' };
    });
    return pageTexts[url];
  }

  function snippetFor(page, terms) {
    var text = page.text;
    var lower = text.toLowerCase();
    var at = -1;
    for (var i = 0; i < terms.length && at < 0; i++) at = lower.indexOf(terms[i].toLowerCase());
    if (at < 0) return page.description || text.slice(0, 140);
    var start = Math.max(0, at - 50);
    var end = Math.min(text.length, at + 110);
    // Cut at word boundaries, not mid-word.
    if (start > 0) {
      var space = text.indexOf(' ', start);
      if (space !== -1 && space < at) start = space + 1;
    }
    if (end < text.length) {
      var last = text.lastIndexOf(' ', end);
      if (last > at) end = last;
    }
    return (start > 0 ? '\u2026' : '') + text.slice(start, end).trim() + (end < text.length ? '\u2026' : '');
  }

  function highlight(node, snippet, terms) {
    node.textContent = '';
    var words = terms.filter(Boolean).map(function (t) { return t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); });
    if (words.length === 0) {
      node.textContent = snippet;
      return;
    }
    var pattern = new RegExp('(' + words.join('|') + ')', 'gi');
    var last = 0;
    snippet.replace(pattern, function (match, _g, offset) {
      node.appendChild(document.createTextNode(snippet.slice(last, offset)));
      node.appendChild(el('mark', '', match));
      last = offset + match.length;
      return match;
    });
    node.appendChild(document.createTextNode(snippet.slice(last)));
  }

  function scheduleSnippets(query) {
    clearTimeout(snippetTimer);
    var token = renderToken;
    var shown = results.slice(0, SNIPPET_RESULTS);
    snippetTimer = setTimeout(function () {
      shown.forEach(function (result, i) {
        pageText(result.url).then(function (page) {
          if (token !== renderToken) return;
          var node = list.children[i] && list.children[i].querySelector('.search-result-snippet');
          var terms = (result.terms || []).concat(tidy(query).split(' '));
          if (node) highlight(node, snippetFor(page, terms), terms);
        });
      });
    }, 200);
  }

  // ---- dialog ----------------------------------------------------------------------------

  function open() {
    if (dialog.open) return;
    reporter.open();
    if (dialog.showModal) dialog.showModal();
    else dialog.setAttribute('open', '');
    input.focus();
    input.select();
    loadIndex().then(function () {
      if (tidy(input.value)) search(input.value);
    }, function () {
      status.textContent = 'Search is not available for this site.';
    });
  }

  function close() {
    reporter.close();
    if (dialog.close) dialog.close();
    else dialog.removeAttribute('open');
  }

  function go(index) {
    var result = results[index];
    if (!result) return;
    reporter.click(input.value, pathOf(result.url));
    window.location.href = result.url;
  }

  input.addEventListener('input', function () {
    var query = input.value;
    search(query);
  });

  input.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (results.length) setActive((activeIndex + 1) % results.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (results.length) setActive((activeIndex - 1 + results.length) % results.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (activeIndex >= 0 && results[activeIndex]) go(activeIndex);
      else {
        var query = input.value;
        // Enter before the index arrived still counts, with the real number of matches.
        loadIndex().then(function () { reporter.enter(query); }, function () { /* no index: nothing to report */ });
      }
    }
  });

  dialog.addEventListener('click', function (event) {
    // A click on the backdrop lands on the <dialog> element itself.
    if (event.target === dialog) close();
  });
  dialog.addEventListener('close', function () {
    reporter.close();
  });

  var closeButtons = dialog.querySelectorAll('[data-search-close]');
  for (var c = 0; c < closeButtons.length; c++) closeButtons[c].addEventListener('click', close);

  var openers = document.querySelectorAll('[data-search-open]');
  for (var o = 0; o < openers.length; o++) openers[o].addEventListener('click', open);

  document.addEventListener('keydown', function (event) {
    var target = event.target;
    var typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
    if ((event.key === 'k' || event.key === 'K') && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      if (dialog.open) close();
      else open();
    } else if (event.key === '/' && !typing && !dialog.open) {
      event.preventDefault();
      open();
    }
  });
})();
