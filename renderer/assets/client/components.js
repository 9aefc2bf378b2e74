/*
 * Behaviour for the MDX components rendered at build time (renderer/page): ARIA tabs (click and
 * arrow keys), copy-to-clipboard buttons, switchers for sibling <View> blocks, and opening the tab
 * or <details> that holds the element named by the URL hash. Plain script, no framework, no inline
 * handlers: everything hangs off data-attributes, so it runs under `script-src 'self'`.
 */
(function () {
  'use strict';

  // The words in the page's language: words.js, put in front of this file (renderer/theme/assets.ts).
  var t = docsWord;

  var COPIED_MS = 2000;

  // ---- tabs ---------------------------------------------------------------------------------

  function tabsOf(tab) {
    var list = tab.closest('[role="tablist"]');
    return list ? Array.prototype.slice.call(list.querySelectorAll('[role="tab"]')) : [];
  }

  function selectTab(tab, focus) {
    tabsOf(tab).forEach(function (other) {
      var selected = other === tab;
      other.setAttribute('aria-selected', selected ? 'true' : 'false');
      other.tabIndex = selected ? 0 : -1;
      var panel = document.getElementById(other.getAttribute('aria-controls') || '');
      if (panel) panel.hidden = !selected;
    });
    if (focus) tab.focus();
  }

  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    var tab = target.closest('[data-tabs] [role="tab"]');
    if (tab) {
      selectTab(tab, false);
      var label = tab.getAttribute('data-view-title');
      if (label) syncViews(label, tab);
      return;
    }
    var copy = target.closest('[data-copy-code]');
    if (copy) copyFrom(copy);
  });

  document.addEventListener('keydown', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target || target.getAttribute('role') !== 'tab' || !target.closest('[data-tabs]')) return;
    var tabs = tabsOf(target);
    var i = tabs.indexOf(target);
    var next = -1;
    if (event.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next === -1 || !tabs[next]) return;
    event.preventDefault();
    selectTab(tabs[next], true);
    var label = tabs[next].getAttribute('data-view-title');
    if (label) syncViews(label, tabs[next]);
  });

  // ---- copy buttons -------------------------------------------------------------------------

  function visibleCode(block) {
    var source = block.querySelector('[data-copy-source]');
    if (source) return source.innerText || source.textContent || '';
    var pres = block.querySelectorAll('pre');
    for (var i = 0; i < pres.length; i++) {
      if (!pres[i].closest('[hidden]')) return pres[i].textContent || '';
    }
    return '';
  }

  function fallbackCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try {
      ok = document.execCommand('copy');
    } catch (e) {
      ok = false;
    }
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error('copy failed'));
  }

  /**
   * The Clipboard API where there is one (a secure context), a selected text area otherwise: sites
   * inside a network are often plain http. Also used by the page menu (contextual.js).
   */
  function copyText(text) {
    var write =
      navigator.clipboard && window.isSecureContext ? navigator.clipboard.writeText(text) : fallbackCopy(text);
    return write.catch(function () {
      return fallbackCopy(text);
    });
  }
  window.docsCopyText = copyText;

  function copyFrom(button) {
    var block = button.closest('[data-code-block]');
    if (!block) return;
    var text = visibleCode(block);
    copyText(text)
      .then(
        function () {
          showCopied(button);
        },
        function () {
          /* Clipboard refused (permissions): nothing to show. */
        },
      );
  }

  function showCopied(button) {
    var status = button.querySelector('.c-code__copy-status');
    button.setAttribute('data-copied', '');
    if (status) status.textContent = t('copied');
    clearTimeout(button._copiedTimer);
    button._copiedTimer = setTimeout(function () {
      button.removeAttribute('data-copied');
      if (status) status.textContent = '';
    }, COPIED_MS);
  }

  // ---- views: sibling <View> blocks become one switcher ---------------------------------------

  var viewGroupCount = 0;

  function groupViews() {
    var views = document.querySelectorAll('.c-view');
    var seen = [];
    for (var i = 0; i < views.length; i++) {
      var first = views[i];
      if (seen.indexOf(first) !== -1 || first.parentElement.classList.contains('c-views')) continue;
      var group = [first];
      var next = first.nextElementSibling;
      while (next && next.classList.contains('c-view')) {
        group.push(next);
        next = next.nextElementSibling;
      }
      seen = seen.concat(group);
      if (group.length > 1) buildViewSwitcher(group);
    }
  }

  function buildViewSwitcher(group) {
    viewGroupCount++;
    var base = 'views-' + viewGroupCount;
    var wrapper = document.createElement('div');
    wrapper.className = 'c-tabs c-views';
    wrapper.setAttribute('data-tabs', '');
    var bar = document.createElement('div');
    bar.className = 'c-tabs__bar';
    var list = document.createElement('div');
    list.className = 'c-tabs__list';
    list.setAttribute('role', 'tablist');
    bar.appendChild(list);
    group[0].parentNode.insertBefore(wrapper, group[0]);
    wrapper.appendChild(bar);
    group.forEach(function (view, i) {
      var title = view.getAttribute('data-view') || 'View ' + (i + 1);
      var tab = document.createElement('button');
      tab.type = 'button';
      tab.className = 'c-tabs__tab';
      tab.id = base + '-tab-' + i;
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-controls', base + '-panel-' + i);
      tab.setAttribute('aria-selected', i === 0 ? 'true' : 'false');
      tab.setAttribute('data-view-title', title);
      tab.tabIndex = i === 0 ? 0 : -1;
      tab.textContent = title;
      list.appendChild(tab);
      view.id = view.id || base + '-panel-' + i;
      tab.setAttribute('aria-controls', view.id);
      view.setAttribute('role', 'tabpanel');
      view.setAttribute('aria-labelledby', tab.id);
      view.hidden = i !== 0;
      wrapper.appendChild(view);
    });
  }

  /** Choosing "Python" in one view switcher chooses it in every switcher on the page. */
  function syncViews(title, origin) {
    var tabs = document.querySelectorAll('.c-views [role="tab"]');
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i] !== origin && tabs[i].getAttribute('data-view-title') === title) selectTab(tabs[i], false);
    }
  }

  // ---- reveal the target of a URL hash -------------------------------------------------------

  function revealHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var el = document.getElementById(id);
    if (!el) return;
    var node = el;
    while (node && node !== document.body) {
      if (node.getAttribute && node.getAttribute('role') === 'tabpanel' && node.hidden) {
        var tab = document.querySelector('[aria-controls="' + node.id + '"]');
        if (tab) selectTab(tab, false);
      }
      if (node.tagName === 'DETAILS') node.open = true;
      node = node.parentElement;
    }
    el.scrollIntoView();
  }

  // The copy buttons in the page's content are labelled in the reader's language.
  function labelCopyButtons() {
    document.querySelectorAll('.c-code__copy[data-copy-code]').forEach(function (button) {
      button.setAttribute('aria-label', t(button.closest('.c-prompt') ? 'copyPrompt' : 'copyCode'));
    });
  }

  function init() {
    labelCopyButtons();
    groupViews();
    revealHash();
  }

  window.addEventListener('hashchange', revealHash);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
