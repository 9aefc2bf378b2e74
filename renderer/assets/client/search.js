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

/*
 * The split index (docs/site-layout.md, "Client search"), free of the DOM so it can be tested
 * alone: one index per language × version ("scope"), each cut into chunks by term. A query
 * fetches the scope's meta.json once, then only the chunks that can hold its terms (and their
 * prefix completions), joins them into a MiniSearch index with the scope's full statistics (so
 * scores are those of a MiniSearch index of the whole scope), and fetches the stored fields of
 * the results it shows. Widened, it searches every scope: the reader's own results first, the
 * others labelled with the version/language they belong to.
 */
(function (root) {
  'use strict';

  // A one- or two-letter term would otherwise pull in every chunk its completions span.
  var MAX_PREFIX_CHUNKS = 6;
  // The reader's own scope wins a tie (relative scores within 25 %).
  var OWN_SCOPE_BOOST = 1.25;

  /**
   * options: base ('/_search/'), scope (the reader's scope key, '' when unknown),
   * fetchJson(url) → Promise, MiniSearch (the library), searchOptions.
   */
  root.docsShardedSearch = function (options) {
    var MiniSearch = options.MiniSearch;
    var tokenize = MiniSearch.getDefault('tokenize');
    var processTerm = MiniSearch.getDefault('processTerm');
    var states = {};
    var scopeList = null;

    function fetchOnce(holder, key, url) {
      if (!holder[key]) {
        holder[key] = options.fetchJson(url);
        holder[key].catch(function () { delete holder[key]; });
      }
      return holder[key];
    }

    function state(key) {
      var s = states[key];
      if (!s) s = states[key] = { key: key, meta: null, chunks: {}, pending: {}, docs: {}, engine: null, dirty: true };
      return fetchOnce(s, 'metaPromise', options.base + key + '/meta.json').then(function (meta) {
        s.meta = meta;
        return s;
      });
    }

    function termsOf(query) {
      var out = [];
      tokenize(query).forEach(function (token) {
        var t = processTerm(token);
        if (Array.isArray(t)) out.push.apply(out, t.filter(Boolean));
        else if (t) out.push(t);
      });
      return out;
    }

    // The chunk whose range holds `term`, and the following ones whose first term starts with it.
    function chunkIndexes(meta, term) {
      var first = meta.terms;
      if (first.length === 0) return [];
      var lo = 0;
      var hi = first.length;
      while (lo < hi) {
        var mid = (lo + hi) >> 1;
        if (first[mid] <= term) lo = mid + 1;
        else hi = mid;
      }
      var at = Math.max(0, lo - 1);
      var out = [at];
      for (var i = at + 1; i < first.length && out.length < MAX_PREFIX_CHUNKS && first[i].lastIndexOf(term, 0) === 0; i++) out.push(i);
      return out;
    }

    function loadChunks(s, query) {
      var wanted = {};
      termsOf(query).forEach(function (term) {
        chunkIndexes(s.meta, term).forEach(function (i) { wanted[i] = true; });
      });
      return Promise.all(Object.keys(wanted).filter(function (i) { return !s.chunks[i]; }).map(function (i) {
        return fetchOnce(s.pending, i, options.base + s.key + '/' + s.meta.termFiles[i]).then(function (entries) {
          if (!s.chunks[i]) {
            s.chunks[i] = entries;
            s.dirty = true;
          }
        });
      }));
    }

    function engine(s) {
      if (s.dirty || !s.engine) {
        var m = s.meta;
        var index = [];
        Object.keys(s.chunks).sort(function (a, b) { return a - b; }).forEach(function (i) { index.push.apply(index, s.chunks[i]); });
        if (!s.ids) {
          s.ids = [];
          for (var id = 0; id < m.documentCount; id++) s.ids.push(id);
        }
        s.engine = MiniSearch.loadJS({
          documentCount: m.documentCount,
          nextId: m.documentCount,
          documentIds: s.ids,
          fieldIds: m.fieldIds,
          fieldLength: m.fieldLength,
          averageFieldLength: m.averageFieldLength,
          storedFields: {},
          dirtCount: 0,
          index: index,
          serializationVersion: 2,
        }, options.searchOptions);
        s.dirty = false;
      }
      return s.engine;
    }

    function searchScope(key, query) {
      return state(key).then(function (s) {
        return loadChunks(s, query).then(function () {
          return engine(s).search(query).map(function (r) {
            return { id: r.id, score: r.score, terms: r.terms, state: s };
          });
        });
      });
    }

    function attach(result) {
      var s = result.state;
      var per = s.meta.docsPerChunk;
      var n = Math.floor(result.id / per);
      return fetchOnce(s.docs, n, options.base + s.key + '/' + s.meta.docFiles[n]).then(function (docs) {
        var d = docs[result.id % per] || [];
        return { url: d[0], title: d[1], section: d[2], score: result.score, terms: result.terms, scope: s.meta.scope || s.key, meta: s.meta };
      });
    }

    // What sets a result apart from the reader's scope: its version, its language, or both.
    function labelFor(meta, current) {
      if (!current) return [meta.language, meta.version].filter(Boolean).join(' \u00b7 ');
      var parts = [];
      if (meta.language !== current.language && meta.language) parts.push(meta.language);
      if (meta.version !== current.version && meta.version) parts.push(meta.version);
      return parts.length ? parts.join(' \u00b7 ') : [meta.language, meta.version].filter(Boolean).join(' \u00b7 ');
    }

    function scopes() {
      if (!scopeList) {
        scopeList = options.fetchJson(options.base + 'scopes.json').then(function (j) { return j.scopes; });
        scopeList.catch(function () { scopeList = null; });
      }
      return scopeList;
    }

    return {
      /** Every scope of the site: [{key, language?, version?, pages}]. */
      scopes: scopes,
      /** Fetch the reader's scope's meta ahead of the first query. */
      warm: function () {
        return options.scope ? state(options.scope) : scopes();
      },
      /**
       * Results for `query` (the first `limit`, with url/title/section; `label` on those from
       * another scope) and the number of matches. `wide`: every scope, not only the reader's.
       */
      search: function (query, opts) {
        var wide = !!(opts && opts.wide) || !options.scope;
        var limit = (opts && opts.limit) || 10;
        // A scope may be several shards (reader access: one per requirement, each listed with
        // `scope`, the scope it belongs to); a reader's listing names only the shards they may load.
        // The scope's public shard says (`shards`) when there are others, so a site without
        // reader access reads no listing for a scoped search.
        var fromList = function () {
          return scopes().then(function (list) {
            return list.filter(function (x) { return wide || (x.scope || x.key) === options.scope; }).map(function (x) { return x.key; });
          });
        };
        var keys = wide ? fromList() : state(options.scope).then(function (s) { return s.meta.shards ? fromList() : [options.scope]; });
        return keys.then(function (list) {
          return Promise.all(list.map(function (key) { return searchScope(key, query); }));
        }).then(function (perScope) {
          var own = [];
          var others = [];
          var scopeOf = function (r) { return r.state.meta.scope || r.state.key; };
          perScope.forEach(function (found) {
            found.forEach(function (r) { (scopeOf(r) === options.scope ? own : others).push(r); });
          });
          // Widened: one ranking, each scope's scores relative to its best match (scores of two
          // scopes are not comparable: each has its own statistics), the reader's scope ahead on
          // near ties. The same page in another version then follows the reader's copy instead of
          // trailing every weak match of the reader's scope.
          var all = own.concat(others);
          if (others.length > 0 || perScope.length > 1) {
            var best = {};
            all.forEach(function (r) { best[r.state.key] = Math.max(best[r.state.key] || 0, r.score); });
            all.forEach(function (r, i) {
              r.rank = (r.score / best[r.state.key]) * (scopeOf(r) === options.scope ? OWN_SCOPE_BOOST : 1);
              r.order = i;
            });
            all.sort(function (a, b) { return b.rank - a.rank || a.order - b.order; });
          }
          var current = options.scope && states[options.scope] ? states[options.scope].meta : null;
          return Promise.all(all.slice(0, limit).map(attach)).then(function (top) {
            top.forEach(function (r) {
              if (r.scope !== options.scope) r.label = labelFor(r.meta, current);
              delete r.meta;
            });
            return { results: top, total: all.length, scopes: perScope.length };
          });
        });
      },
    };
  };
})(window);

(function () {
  'use strict';

  // The words in the page's language: words.js, put in front of this file (renderer/theme/assets.ts).
  var t = docsWord;

  var script = document.currentScript;
  var MINISEARCH_URL = script && script.getAttribute('data-minisearch');
  var SEARCH_BASE = (script && script.getAttribute('data-search')) || '/_search/';
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
  var scopeButton = document.getElementById('search-scope');
  if (!dialog || !input || !list || !status) return;
  // The reader's language × version (renderer/index-stage/scopes.ts); search starts there.
  var SCOPE = document.documentElement.getAttribute('data-search-scope') || '';

  var indexPromise = null;
  var results = [];
  var totalFound = 0; // matches for the query on screen (results holds only the first few)
  var activeIndex = -1;
  var searchIndex = null; // the split index (docsShardedSearch), once the library is loaded
  var wide = false; // searching every version and language, not only the reader's
  var counts = {}; // normalised query → number of matches, for the analytics beacon
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

  // Elsewhere than on the appliance (site.js's status says so) searches are not reported at all.
  var reporting = true;
  if (window.docsApplianceStatus) {
    window.docsApplianceStatus.then(function (s) { if (s && s.appliance === false) reporting = false; });
  }

  function send(body) {
    if (!reporting) return;
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
      var known = counts[(wide ? 'w:' : 's:') + tidy(query).toLowerCase()];
      return known !== undefined ? known : totalFound;
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

  function fetchJson(url) {
    return window.fetch(url, { credentials: 'same-origin' }).then(function (res) {
      if (!res.ok) throw new Error('search index unavailable (' + res.status + ')');
      return res.json();
    });
  }

  function loadIndex() {
    if (!indexPromise) {
      // The library and the reader's scope description load side by side.
      var meta = SCOPE ? fetchJson(SEARCH_BASE + SCOPE + '/meta.json') : Promise.resolve(null);
      indexPromise = Promise.all([loadScript(MINISEARCH_URL), meta]).then(function (parts) {
        var preloaded = parts[1];
        searchIndex = window.docsShardedSearch({
          base: SEARCH_BASE,
          scope: SCOPE,
          MiniSearch: parts[0],
          searchOptions: SEARCH_OPTIONS,
          fetchJson: function (url) {
            if (preloaded && url === SEARCH_BASE + SCOPE + '/meta.json') {
              var ready = Promise.resolve(preloaded);
              preloaded = null;
              return ready;
            }
            return fetchJson(url);
          },
        });
        return searchIndex.warm().then(function () { return searchIndex; });
      });
      indexPromise.catch(function () { indexPromise = null; });
      showScopeButton();
    }
    return indexPromise;
  }

  function runSearch(query) {
    var mode = wide;
    return loadIndex().then(function (index) {
      return index.search(tidy(query), { wide: mode, limit: MAX_RESULTS });
    }).then(function (found) {
      counts[(mode ? 'w:' : 's:') + tidy(query).toLowerCase()] = found.total;
      return found;
    });
  }

  // ---- scope -----------------------------------------------------------------------------

  // Offered only on sites with more than one language or version.
  function showScopeButton() {
    if (!scopeButton || !SCOPE) return;
    fetchJson(SEARCH_BASE + 'scopes.json').then(function (j) {
      // Restricted shards (reader access) name the scope they belong to: count scopes, not shards.
      var distinct = {};
      (j.scopes || []).forEach(function (x) { distinct[x.scope || x.key] = true; });
      if (Object.keys(distinct).length < 2) return;
      scopeButton.hidden = false;
      labelScopeButton();
    }, function () { /* no list: no widening */ });
  }

  function labelScopeButton() {
    if (!scopeButton) return;
    scopeButton.textContent = wide ? t('searchThis') : t('searchAll');
    scopeButton.setAttribute('aria-pressed', wide ? 'true' : 'false');
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

  function render(query, found, total) {
    results = found.slice(0, MAX_RESULTS);
    totalFound = total === undefined ? found.length : total;
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
      if (result.label) head.appendChild(el('span', 'search-result-scope', result.label));
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
    else if (totalFound === 0) status.textContent = t('noResults', { query: tidy(query) });
    else status.textContent = totalFound === 1 ? t('oneResult') : totalFound > results.length ? t('topResults', { shown: results.length, count: totalFound }) : t('results', { count: totalFound });
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
    runSearch(query).then(function (found) {
      if (token !== renderToken) return;
      render(query, found.results, found.total);
      reporter.typed(query);
    }, function () {
      if (token !== renderToken) return;
      list.textContent = '';
      status.textContent = t('searchUnavailable');
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
      status.textContent = t('searchUnavailable');
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
        runSearch(query).then(function () { reporter.enter(query); }, function () { /* no index: nothing to report */ });
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

  if (scopeButton) {
    scopeButton.addEventListener('click', function () {
      wide = !wide;
      labelScopeButton();
      search(input.value);
      input.focus();
    });
  }

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
