/*
 * The runtime of exported components (renderer/islands): a tiny module system for the compiled
 * snippets (`__mintIslands.define`), React mapped to Preact (preact/compat), and the mounting of
 * each island `<div data-island="file#Export" data-props="…">`. The same file runs in the
 * pre-render sandbox (QuickJS, no DOM), where `renderToString` is used instead of `mount`.
 * Needs the globals `preact`, `preactHooks`, `preactCompat` and `__mintComponents`.
 */
(function (g) {
  'use strict';
  var P = g.preact;
  var C = g.preactCompat;
  var factories = Object.create(null);
  var loaded = Object.create(null);
  // The page's icon table (renderer/islands/icons.ts): key → [svg attributes, inner SVG], or 0 for
  // a name the site's library lacks (renders nothing, as in MDX).
  var icons = Object.create(null);
  var missing = Object.create(null);
  var warned = Object.create(null);
  // The page language's words for Mintlify's components (renderer/islands/words.ts); none: English.
  var words = Object.create(null);
  var passthrough = g.__mintPassthrough;

  function esModule(obj) {
    var out = { __esModule: true, default: obj };
    for (var k in obj) if (k !== 'default') out[k] = obj[k];
    return out;
  }
  var react = esModule(C);
  var jsxRuntime = {
    __esModule: true,
    Fragment: C.Fragment,
    jsx: function (type, props, key) { return C.createElement(type, key === undefined ? props : Object.assign({ key: key }, props)); }
  };
  jsxRuntime.jsxs = jsxRuntime.jsx;
  jsxRuntime.jsxDEV = jsxRuntime.jsx;
  var packages = {
    react: react, 'react-dom': react, 'react-dom/client': react, 'react/jsx-runtime': jsxRuntime, 'react/jsx-dev-runtime': jsxRuntime,
    preact: esModule(P), 'preact/hooks': esModule(g.preactHooks), 'preact/compat': react
  };
  // Any other package (`next/script`, `@acme/ui`) or a missing file: every export renders its children.
  var unknownModule = typeof Proxy === 'function'
    ? new Proxy({}, { get: function (_t, key) { return key === '__esModule' ? true : passthrough; } })
    : { __esModule: true, default: passthrough };

  // Names a Mintlify snippet may use without importing them: React's hooks and Mintlify's components.
  var scope = Object.assign({}, g.__mintComponents, { React: C });
  ['useState', 'useEffect', 'useLayoutEffect', 'useRef', 'useMemo', 'useCallback', 'useReducer', 'useContext', 'useId',
    'useImperativeHandle', 'useDebugValue', 'useTransition', 'useDeferredValue', 'useSyncExternalStore', 'useInsertionEffect',
    'createContext', 'forwardRef', 'memo', 'Fragment'].forEach(function (k) { if (C[k]) scope[k] = C[k]; });
  // Mintlify's `user` for code that reads it (compile.ts): the signed-in reader's `content`, set by
  // reader.js before the islands are rendered; `{}` signed out and in the pre-render sandbox.
  var api = {
    h: C.createElement, Fragment: C.Fragment, scope: scope,
    user: function () { var m = g.mintlify; return (m && m.user && typeof m.user === 'object') ? m.user : {}; }
  };

  // The page's outside-media rule (renderer/page/outside-media.ts) for every element a running
  // component creates, in the browser and in the pre-render sandbox alike: media whose source is
  // outside the bundle become the same visible stand-in as on pages, so the exported site loads
  // nothing from outside it (component code is the repository's; its URLs are not trusted to be reachable).
  var OUTSIDE_RE = /^(?:[a-z][a-z0-9+.-]*:)?\/\//i;
  var MEDIA = { img: 'image', iframe: 'embed', video: 'embed', audio: 'embed', source: 'embed' };
  function hostOf(src) {
    var m = /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#:]+)/i.exec(src);
    return m ? m[1] : src;
  }
  // Below SMALL_PX in either dimension (the element's width/height, style or Tailwind w-/h-/size-
  // classes) the box cannot hold the notice: the stand-in is the image icon alone, at that size,
  // the notice its name and tooltip (page/outside-media.ts SMALL_IMAGE_PX, the same rule).
  var SMALL_PX = 96;
  function imageIcon() {
    var line = { fill: 'none', stroke: 'currentColor', 'stroke-width': '1.5' };
    return C.createElement('svg', { class: 'c-outside__icon', viewBox: '0 0 24 24', 'aria-hidden': 'true' },
      C.createElement('rect', Object.assign({ x: '3', y: '4', width: '18', height: '16', rx: '2' }, line)),
      C.createElement('circle', { cx: '9', cy: '9.5', r: '1.6', fill: 'currentColor' }),
      C.createElement('path', Object.assign({ d: 'M4 18l5-5 3.5 3.5L16 13l4 4', 'stroke-linejoin': 'round' }, line)));
  }
  function pixels(v) {
    if (typeof v === 'number') return isFinite(v) && v > 0 ? v : undefined;
    var m = typeof v === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(px|r?em)?\s*$/i.exec(v) : null;
    if (!m) return undefined;
    var n = Number(m[1]) * (m[2] && /r?em/i.test(m[2]) ? 16 : 1);
    return n > 0 ? n : undefined;
  }
  function imageBox(props, cls) {
    var style = props.style;
    function styled(name) {
      if (style && typeof style === 'object') return pixels(style[name]);
      if (typeof style === 'string') {
        var m = new RegExp('(?:^|;)\\s*' + name + '\\s*:\\s*([^;]+)', 'i').exec(style);
        return m ? pixels(m[1]) : undefined;
      }
      return undefined;
    }
    var tw = {};
    String(cls || '').split(/\s+/).forEach(function (c) {
      var m = /^(w|h|size)-(?:(\d+(?:\.5)?)|\[([^\]]+)\])$/.exec(c);
      if (!m) return;
      var px = m[2] !== undefined ? Number(m[2]) * 4 : pixels(m[3]);
      if (!px) return;
      if (m[1] !== 'h') tw.width = px;
      if (m[1] !== 'w') tw.height = px;
    });
    var width = styled('width'), height = styled('height');
    if (width === undefined) width = pixels(props.width);
    if (width === undefined) width = tw.width;
    if (height === undefined) height = pixels(props.height);
    if (height === undefined) height = tw.height;
    return { width: width, height: height };
  }
  var previousVnode = P.options.vnode;
  P.options.vnode = function (vnode) {
    var kind = typeof vnode.type === 'string' ? MEDIA[vnode.type] : undefined;
    var props = vnode.props;
    var src = kind && props && (props.src || props.poster);
    if (typeof src === 'string' && OUTSIDE_RE.test(src)) {
      var host = hostOf(src);
      var label = props.alt || props.title || (kind === 'image' ? 'Image' : 'Embedded content');
      var cls = props.className || props.class;
      var box = kind === 'image' ? imageBox(props, cls) : {};
      var least = Math.min(box.width === undefined ? Infinity : box.width, box.height === undefined ? Infinity : box.height);
      vnode.type = 'span';
      if (least < SMALL_PX) {
        var words = label + '. Hosted at ' + host + ', which this network may not reach.';
        // One side given: square, as the icons and logos of small boxes are.
        var side = { width: box.width === undefined ? box.height : box.width, height: box.height === undefined ? box.width : box.height };
        var size = { width: side.width + 'px', height: side.height + 'px' };
        vnode.props = {
          className: 'c-outside c-outside--image c-outside--small' + (cls ? ' ' + cls : ''),
          'data-outside-host': host,
          role: 'img',
          'aria-label': words,
          title: words,
          style: size,
          children: imageIcon()
        };
        if (previousVnode) previousVnode(vnode);
        return;
      }
      vnode.props = {
        // The element's own classes stay: a `block dark:hidden` pair still shows one stand-in per theme.
        className: 'c-outside c-outside--' + kind + (props.className || props.class ? ' ' + (props.className || props.class) : ''),
        'data-outside-host': host,
        children: C.createElement('span', { className: 'c-outside__body' },
          C.createElement('span', { className: 'c-outside__title' }, label),
          C.createElement('span', { className: 'c-outside__note' }, 'Hosted at ' + host + ', which this network may not reach.'))
      };
    }
    if (previousVnode) previousVnode(vnode);
  };

  function define(id, deps, fn) {
    if (!factories[id]) factories[id] = { deps: deps, fn: fn };
  }
  function load(id) {
    if (loaded[id]) return loaded[id].exports;
    var f = factories[id];
    if (!f) return unknownModule;
    var module = { exports: {} };
    loaded[id] = module;
    try {
      f.fn(function (spec) {
        var target = Object.prototype.hasOwnProperty.call(f.deps, spec) ? f.deps[spec] : spec;
        if (target && Object.prototype.hasOwnProperty.call(packages, target)) return packages[target];
        return target && factories[target] ? load(target) : unknownModule;
      }, module, module.exports, api);
    } catch (err) {
      // Each component of a module whose top level throws reports that error, not a half-made module.
      delete loaded[id];
      throw err;
    }
    return module.exports;
  }
  function component(key) {
    var at = key.lastIndexOf('#');
    var exports = load(key.slice(0, at));
    var name = key.slice(at + 1);
    var c = exports[name] !== undefined ? exports[name] : exports['__mint_local_' + name];
    if (typeof c !== 'function' && !(c && typeof c === 'object' && c.$$typeof)) throw new Error(name + ' is not a component');
    return c;
  }
  // Rendered HTML handed in by the page (children, JSX props): already sanitised by the renderer.
  function Raw(p) {
    return P.h('mint-html', { style: 'display:contents', dangerouslySetInnerHTML: { __html: p.html } });
  }
  function element(key, data, html, codeProps) {
    var props = Object.assign({}, data);
    for (var k in html) props[k] = P.h(Raw, { html: html[k] });
    // Props that are code: computed by the module the exporter compiled for them (code-props.ts).
    if (codeProps) {
      var thunk = load(codeProps).__mint_props;
      if (typeof thunk === 'function') Object.assign(props, thunk());
    }
    return C.createElement(component(key), props);
  }

  function Boundary() { P.Component.apply(this, arguments); this.state = { failed: false }; }
  Boundary.prototype = Object.create(P.Component.prototype);
  Boundary.prototype.constructor = Boundary;
  Boundary.prototype.componentDidCatch = function (err) {
    if (g.console) g.console.warn('[docs] the component ' + this.props.name + ' failed and is not shown:', err);
    this.setState({ failed: true });
  };
  Boundary.prototype.render = function () { return this.state.failed ? null : this.props.children; };

  function mount(el, fresh) {
    var key = el.getAttribute('data-island');
    var html = {};
    var slots = el.querySelectorAll('template[data-slot]');
    for (var i = 0; i < slots.length; i++) {
      if (slots[i].parentNode !== el) continue;
      html[slots[i].getAttribute('data-slot')] = slots[i].innerHTML;
      el.removeChild(slots[i]);
    }
    // On a personalised page the reader's render may differ from the signed-out first paint in
    // shape (another branch of a conditional): Preact would reuse the old nodes and keep some of
    // them, so it renders into an empty container there.
    if (fresh) while (el.firstChild) el.removeChild(el.firstChild);
    try {
      var data = JSON.parse(el.getAttribute('data-props') || '{}');
      P.render(P.h(Boundary, { name: key }, element(key, data, html, el.getAttribute('data-code-props'))), el);
    } catch (err) {
      if (g.console) g.console.warn('[docs] the component ' + key + ' failed and is not shown:', err);
      el.textContent = '';
    }
  }
  function boot(fresh) {
    var els = g.document.querySelectorAll('[data-island]');
    for (var i = 0; i < els.length; i++) mount(els[i], fresh === true);
  }

  function iconKey(name, iconType, theme) {
    return theme ? 'theme:' + name : iconType ? name + '|' + iconType : name;
  }
  // A name the page could not know at export time (computed in the browser, after a click): a
  // neutral glyph of the icon's size, as for a Font Awesome Pro icon, and one console warning.
  function placeholder(name) {
    return [{ xmlns: 'http://www.w3.org/2000/svg', viewBox: '0 0 512 512', 'class': 'icon icon-placeholder mint-class-slot', 'data-icon': name, 'aria-hidden': 'true', focusable: 'false' },
      '<rect x="72" y="72" width="368" height="368" rx="80" fill="none" stroke="currentColor" stroke-width="40" stroke-dasharray="72 48" opacity=".5"/>'];
  }
  function iconEntry(name, iconType, theme) {
    var key = iconKey(String(name), iconType ? String(iconType) : '', theme);
    if (key in icons) return icons[key] || null;
    missing[key] = [String(name), iconType ? String(iconType) : null, !!theme];
    if (g.document && !warned[key] && g.console) {
      warned[key] = true;
      g.console.warn('[docs] the icon "' + name + '" was not bundled with this page; a placeholder is shown');
    }
    return placeholder(String(name));
  }

  g.__mintIslands = {
    define: define,
    icons: function (map) { for (var k in map) icons[k] = map[k]; },
    iconEntry: iconEntry,
    // A non-English page's words script calls this (after the runtime, before its modules).
    words: function (map) { for (var k in map) if (typeof map[k] === 'string') words[k] = map[k]; },
    word: function (key, english) { return typeof words[key] === 'string' ? words[key] : english; },
    // For the sandbox: the HTML, and the icons the render asked for that the table lacked. One
    // context renders pages of every language: the page's words replace the last page's.
    renderToString: function (key, dataJson, htmlJson, iconsJson, codeProps, wordsJson) {
      var table = JSON.parse(iconsJson || '{}');
      for (var k in table) icons[k] = table[k];
      if (wordsJson) {
        words = Object.create(null);
        var given = JSON.parse(wordsJson);
        for (var w in given) if (typeof given[w] === 'string') words[w] = given[w];
      }
      missing = Object.create(null);
      var html = g.preactRenderToString.renderToString(element(key, JSON.parse(dataJson), JSON.parse(htmlJson), codeProps));
      var asked = [];
      for (var m in missing) asked.push(missing[m]);
      return JSON.stringify({ html: html, missing: asked });
    }
  };
  if (g.document) {
    // Deferred scripts (this one, then each page's modules) all run before DOMContentLoaded.
    // A personalised page (reader.js first) renders its islands once the reader is known, so code
    // reading `user` sees them; the pre-rendered HTML (signed out) shows until then.
    var start = function () {
      var pending = g.mintlify && g.mintlify.userPending;
      var personal = function () { boot(true); };
      if (pending && typeof pending.then === 'function') pending.then(personal, personal);
      else boot();
    };
    if (g.document.readyState === 'complete') start();
    else g.document.addEventListener('DOMContentLoaded', start);
  }
})(globalThis);
