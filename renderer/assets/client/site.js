/*
 * Site chrome behaviour: theme toggle, the phone navigation drawer, division switchers,
 * table-of-contents scroll-spy and Mermaid diagrams. Plain ES2017, no framework, no inline
 * handlers (the site runs under CSP script-src 'self'). Everything degrades to working links
 * and <details> disclosures when this file does not run.
 */
(function () {
  'use strict';

  // The words in the page's language: words.js, put in front of this file (renderer/theme/assets.ts).
  var t = docsWord;

  var root = document.documentElement;
  var THEME_KEY = 'docs-theme';

  // The appliance's status, asked once per page and shared by every script that talks to the
  // appliance (assistant, page menu, page views, search analytics, playground). The bundle holds
  // a static stand-in at the same path (renderer/write/appliance-stand-ins.ts) that the appliance
  // shadows with its own answer: on any other host the stand-in answers `appliance: false`, so
  // the scripts stay quiet there without a single failed request in the console.
  if (!window.docsApplianceStatus) {
    var unknown = { appliance: false };
    window.docsApplianceStatus = !window.fetch
      ? Promise.resolve(unknown)
      : window
          .fetch('/_/assistant', { headers: { accept: 'application/json' } })
          .then(function (res) { return res.ok ? res.json() : unknown; })
          .then(function (s) { return s && typeof s === 'object' ? s : unknown; }, function () { return unknown; });
  }

  function currentTheme() {
    return root.getAttribute('data-theme') === 'dark' ? 'dark' : 'light';
  }

  function setTheme(theme, persist) {
    root.setAttribute('data-theme', theme);
    if (persist) {
      try {
        window.localStorage.setItem(THEME_KEY, theme);
      } catch (e) {
        // Storage may be blocked; the choice then lasts for this page only.
      }
    }
    document.dispatchEvent(new CustomEvent('docs:themechange', { detail: { theme: theme } }));
  }

  function savedTheme() {
    try {
      return window.localStorage.getItem(THEME_KEY);
    } catch (e) {
      return null;
    }
  }

  function initTheme() {
    var strict = root.getAttribute('data-appearance-strict') === 'true';
    var toggles = document.querySelectorAll('[data-theme-toggle]');
    for (var i = 0; i < toggles.length; i++) {
      toggles[i].addEventListener('click', function () {
        setTheme(currentTheme() === 'dark' ? 'light' : 'dark', true);
      });
    }
    // Follow the OS live when the site leaves it to the system, unless the reader chose (a strict
    // site ignores any stored choice, as theme-init.js does).
    if (root.getAttribute('data-appearance') === 'system' && window.matchMedia) {
      var query = window.matchMedia('(prefers-color-scheme: dark)');
      var follow = function (event) {
        var saved = strict ? null : savedTheme();
        if (saved !== 'light' && saved !== 'dark') setTheme(event.matches ? 'dark' : 'light', false);
      };
      if (query.addEventListener) query.addEventListener('change', follow);
    }
  }

  /** The config's banner: dismissing it hides it on every page until its text changes. */
  function initBanner() {
    var button = document.querySelector('[data-banner-dismiss]');
    var key = root.getAttribute('data-banner');
    if (!button || !key) return;
    button.addEventListener('click', function () {
      root.setAttribute('data-banner-dismissed', '');
      try {
        window.localStorage.setItem('docs-banner-dismissed', key);
      } catch (e) {
        // Storage may be blocked; the banner then comes back on the next page.
      }
    });
  }

  function initNavDrawer() {
    var body = document.body;
    var toggle = document.querySelector('[data-nav-toggle]');
    var sidebar = document.getElementById('sidebar');
    var backdrop = document.querySelector('[data-nav-close]');
    if (!toggle || !sidebar) return;
    function setOpen(open) {
      body.classList.toggle('nav-open', open);
      toggle.setAttribute('aria-expanded', open ? 'true' : 'false');
      toggle.setAttribute('aria-label', open ? t('closeNavigation') : t('openNavigation'));
      if (backdrop) backdrop.hidden = !open;
      if (open) {
        var current = sidebar.querySelector('[aria-current="page"]') || sidebar.querySelector('a');
        if (current) current.focus({ preventScroll: false });
      }
    }
    toggle.addEventListener('click', function () {
      setOpen(!body.classList.contains('nav-open'));
    });
    if (backdrop) backdrop.addEventListener('click', function () { setOpen(false); });
    document.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && body.classList.contains('nav-open')) {
        setOpen(false);
        toggle.focus();
      }
    });
    sidebar.addEventListener('click', function (event) {
      var link = event.target.closest ? event.target.closest('a[href]') : null;
      if (link && body.classList.contains('nav-open')) setOpen(false);
    });
    // Leaving the phone layout with the drawer open must not leave the page locked.
    if (window.matchMedia) {
      var wide = window.matchMedia('(min-width: 1024px)');
      var reset = function () { if (wide.matches) setOpen(false); };
      if (wide.addEventListener) wide.addEventListener('change', reset);
    }
  }

  function revealCurrentSidebarLink() {
    var sidebar = document.querySelector('.sidebar-inner');
    var current = sidebar && sidebar.querySelector('[aria-current="page"]');
    if (!sidebar || !current) return;
    var top = current.getBoundingClientRect().top - sidebar.getBoundingClientRect().top;
    if (top > sidebar.clientHeight - 80) sidebar.scrollTop = top - sidebar.clientHeight / 3;
  }

  // A large section's page carries only the part of the sidebar around it (docs/site-layout.md,
  // "Sidebar of a large section"); the whole tree is one shared file, cached once for the section.
  function loadSharedSidebar() {
    var nav = document.querySelector('nav[data-sidebar-src]');
    if (!nav || !window.fetch) return;
    var src = nav.getAttribute('data-sidebar-src');
    window.fetch(src, { credentials: 'same-origin' }).then(function (res) {
      if (!res.ok) throw new Error(String(res.status));
      return res.text();
    }).then(function (html) {
      var scroller = document.querySelector('.sidebar-inner');
      var current = nav.querySelector('[aria-current="page"]');
      var href = current && current.getAttribute('href');
      var before = current ? current.getBoundingClientRect().top : 0;
      // The bundle's own file, written by the renderer: sidebar markup only, nothing that runs.
      nav.innerHTML = html;
      nav.removeAttribute('data-sidebar-src');
      nav.setAttribute('data-sidebar-full', '');
      if (!href) return;
      var links = nav.querySelectorAll('a[href]');
      var first = null;
      for (var i = 0; i < links.length; i++) {
        if (links[i].getAttribute('href') !== href) continue;
        links[i].setAttribute('aria-current', 'page');
        first = first || links[i];
        for (var up = links[i].parentElement; up && up !== nav; up = up.parentElement) {
          if (up.tagName === 'DETAILS') up.open = true;
        }
      }
      // Keep the reader's page where it was on screen while the tree grows around it.
      if (first && scroller) scroller.scrollTop += first.getBoundingClientRect().top - before;
    }).catch(function () { /* the window stays: every page is still reachable through it */ });
  }

  function initSwitchers() {
    var menus = document.querySelectorAll('details[data-switcher]');
    if (menus.length === 0) return;
    document.addEventListener('click', function (event) {
      for (var i = 0; i < menus.length; i++) {
        if (menus[i].open && !menus[i].contains(event.target)) menus[i].open = false;
      }
    });
    document.addEventListener('keydown', function (event) {
      if (event.key !== 'Escape') return;
      for (var i = 0; i < menus.length; i++) {
        if (menus[i].open) {
          menus[i].open = false;
          var summary = menus[i].querySelector('summary');
          if (summary) summary.focus();
        }
      }
    });
  }

  function initScrollSpy() {
    var links = document.querySelectorAll('[data-toc-link]');
    if (links.length === 0 || !('IntersectionObserver' in window)) return;
    var byId = {};
    var headings = [];
    for (var i = 0; i < links.length; i++) {
      var id = links[i].getAttribute('data-toc-link');
      var heading = id ? document.getElementById(id) : null;
      if (heading) {
        byId[id] = links[i];
        headings.push(heading);
      }
    }
    if (headings.length === 0) return;
    var visible = {};
    var active = null;
    function activate(id) {
      if (active === id) return;
      if (active && byId[active]) byId[active].removeAttribute('aria-current');
      active = id;
      if (id && byId[id]) byId[id].setAttribute('aria-current', 'location');
    }
    function update() {
      // The active entry is the first heading in view, else the last one scrolled past.
      for (var i = 0; i < headings.length; i++) {
        if (visible[headings[i].id]) return activate(headings[i].id);
      }
      var passed = null;
      for (var j = 0; j < headings.length; j++) {
        if (headings[j].getBoundingClientRect().top < 120) passed = headings[j].id;
      }
      activate(passed || headings[0].id);
    }
    var observer = new IntersectionObserver(function (entries) {
      for (var i = 0; i < entries.length; i++) visible[entries[i].target.id] = entries[i].isIntersecting;
      update();
    }, { rootMargin: '-72px 0px -55% 0px', threshold: 0 });
    for (var k = 0; k < headings.length; k++) observer.observe(headings[k]);
  }

  function initShortcutHint() {
    var isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent || '');
    var hints = document.querySelectorAll('[data-shortcut]');
    for (var i = 0; i < hints.length; i++) hints[i].textContent = isMac ? '\u2318K' : 'Ctrl K';
  }

  // Mermaid replaces each diagram's source with an SVG; the source is kept so a theme switch
  // can draw the diagram again in the matching colours.
  var mermaidSources = [];
  function renderMermaid() {
    var mermaid = window.mermaid;
    if (!mermaid) return;
    var nodes = document.querySelectorAll('.mermaid');
    if (nodes.length === 0) return;
    if (mermaidSources.length === 0) {
      for (var i = 0; i < nodes.length; i++) mermaidSources.push({ node: nodes[i], source: nodes[i].textContent || '' });
    } else {
      for (var j = 0; j < mermaidSources.length; j++) {
        mermaidSources[j].node.removeAttribute('data-processed');
        mermaidSources[j].node.textContent = mermaidSources[j].source;
      }
    }
    try {
      mermaid.initialize({
        startOnLoad: false,
        securityLevel: 'strict',
        theme: currentTheme() === 'dark' ? 'dark' : 'default',
        fontFamily: 'inherit',
      });
      var run = mermaid.run({ nodes: mermaidSources.map(function (s) { return s.node; }) });
      if (run && run.catch) run.catch(function () { /* a broken diagram keeps showing its source */ });
    } catch (e) {
      // Same: leave the source text visible rather than break the page.
    }
  }

  function init() {
    initTheme();
    initBanner();
    initNavDrawer();
    initSwitchers();
    initScrollSpy();
    initShortcutHint();
    revealCurrentSidebarLink();
    loadSharedSidebar();
  }

  init();
  // Deferred scripts run in order and mermaid comes after this file: wait until all have run.
  document.addEventListener('DOMContentLoaded', renderMermaid);
  document.addEventListener('docs:themechange', renderMermaid);
})();
