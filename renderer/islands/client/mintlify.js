/*
 * Mintlify's own components for code that runs in the reader's browser (and in the pre-render
 * sandbox): the same markup, classes and ARIA as the export-time renderer (renderer/page/components),
 * so a <Card> inside a running component looks like a <Card> in MDX. Tabs and copy buttons get their
 * behaviour from the page's components.js (delegated on data-attributes), as in MDX. Icons come from
 * the icon table the page ships (renderer/islands/icons.ts) through `__mintIslands.iconSvg`.
 * Words (callout labels, badges, Expandable's summary) are the page language's, as the static
 * renderer writes them (renderer/i18n/content-strings.ts), through `__mintIslands.word`; English
 * when the page gave none. Plain ES5-style script; needs the globals `preact` and `preactHooks`.
 */
(function (g) {
  'use strict';
  var h = g.preact.h;
  var useState = g.preactHooks.useState;
  var SAFE_COLOR_RE = /^(?:#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|(?:rgb|rgba|hsl|hsla|oklch)\([\d\s.,%/-]+\)|var\(--[\w-]+\))$/;
  var ICON_URL_RE = /^(?:https?:)?\/\/|^\/|\.(?:svg|png|jpe?g|gif|webp)$/i;
  var BADGE_COLORS = ['gray', 'blue', 'green', 'yellow', 'orange', 'red', 'purple', 'white', 'surface', 'white-destructive', 'surface-destructive'];
  var KINDS = {
    note: ['circle-info', 'Note'], info: ['circle-info', 'Info'], tip: ['lightbulb', 'Tip'],
    warning: ['triangle-exclamation', 'Warning'], check: ['circle-check', 'Check'], danger: ['circle-xmark', 'Danger']
  };
  var uidCounter = 0;
  // The page language's word for `key` (renderer/islands/words.ts), else the English one.
  function word(key, english) {
    var m = g.__mintIslands;
    return m && m.word ? m.word(key, english) : english;
  }

  function cls() {
    var out = [];
    for (var i = 0; i < arguments.length; i++) if (arguments[i]) out.push(arguments[i]);
    return out.join(' ');
  }
  function str(v) {
    if (typeof v === 'number') return String(v);
    return typeof v === 'string' && v !== '' ? v : undefined;
  }
  function bool(v) {
    return v === true || v === 'true' || v === '';
  }
  function num(v) {
    var n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
    return isFinite(n) ? n : undefined;
  }
  function color(v) {
    var s = typeof v === 'string' ? v.trim() : '';
    return s && SAFE_COLOR_RE.test(s) ? s : undefined;
  }
  function raw(html) {
    return { __html: html };
  }
  // Per-instance ids (tabs, tooltips): unique on the page, stable across the instance's re-renders.
  function useUid(prefix) {
    return useState(function () { uidCounter++; return 'island-' + prefix + '-' + uidCounter; })[0];
  }
  // Mintlify's anchor ids (renderer/page/slug.ts slugify), without the page-wide repeat counter.
  function slugify(text) {
    return String(text).trim().toLowerCase().replace(/'/g, '\u2019')
      .replace(/[^\p{L}\p{M}\p{N}\p{S}_\-/&@\u2019]|[`^+<=>|~]/gu, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '');
  }
  function kebabName(name) {
    return String(name).replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
      .toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(function (w) { return w !== ''; }).join('-');
  }

  /** An icon table entry ([attributes, inner SVG], renderer/islands/icons.ts) as an <svg> like the exporter's. */
  function svgNode(entry, className) {
    var attrs = Object.assign({}, entry[0]);
    attrs['class'] = attrs['class'].replace(' ' + SLOT, className ? ' ' + className : '');
    attrs.dangerouslySetInnerHTML = raw(entry[1]);
    return h('svg', attrs);
  }
  var SLOT = 'mint-class-slot';
  /**
   * The `icon` prop of any component, as ComponentCall.icon renders it: a name from the site's icon
   * library (the page's icon table), an image URL, or JSX (an element or rendered HTML) as it is.
   */
  function iconNode(icon, iconType, className) {
    if (icon === undefined || icon === null || icon === '' || icon === false) return null;
    if (typeof icon !== 'string') return icon;
    if (ICON_URL_RE.test(icon)) return h('img', { className: className, src: icon, alt: '', 'aria-hidden': 'true' });
    var entry = g.__mintIslands && g.__mintIslands.iconEntry(icon, iconType, false);
    return entry ? svgNode(entry, className) : null;
  }
  function themeIcon(name, className) {
    var entry = g.__mintIslands && g.__mintIslands.iconEntry(name, undefined, true);
    return entry ? svgNode(entry, className) : null;
  }

  function Icon(p) {
    var name = str(p.icon) !== undefined ? p.icon : p.src;
    var svg = iconNode(name !== undefined ? name : p.icon, p.iconType, 'c-icon');
    if (!svg) return null;
    var size = num(p.size);
    var c = color(p.color);
    var style = [size ? '--icon-size:' + size + 'px' : '', c ? 'color:' + c : ''].filter(Boolean).join(';');
    return h('span', { className: 'c-icon-inline', style: style || undefined }, svg);
  }
  function Card(p) {
    var title = str(p.title);
    var href = str(p.href);
    var img = str(p.img);
    var c = color(p.color);
    var icon = iconNode(p.icon, p.iconType, 'c-card__icon-svg');
    var cta = str(p.cta);
    var external = href !== undefined && /^https?:\/\//i.test(href);
    var linkProps = function (className) {
      return { className: className, href: href, rel: external ? 'noopener noreferrer' : undefined };
    };
    var titleEl = title
      ? h('p', { className: 'c-card__title' }, href ? h('a', linkProps('c-card__link'), title) : title)
      : href ? h('a', linkProps('c-card__link c-card__link--untitled'), h('span', { className: 'c-sr-only' }, cta || word('open', 'Open'))) : null;
    return h('div', { className: cls('c-card', bool(p.horizontal) && 'c-card--horizontal', href && 'c-card--link') },
      img ? h('img', { className: 'c-card__img', src: img, alt: '', loading: 'lazy' }) : null,
      icon ? h('span', { className: 'c-card__icon', style: c ? 'color:' + c : undefined }, icon) : null,
      h('div', { className: 'c-card__body' }, titleEl,
        p.children != null && p.children !== false ? h('div', { className: 'c-card__content' }, p.children) : null,
        cta ? h('span', { className: 'c-card__cta', 'aria-hidden': 'true' }, cta) : null));
  }
  function group(kind) {
    return function (p) {
      var cols = Math.min(Math.max(Math.round(num(p.cols) || 2), 1), 6);
      return h('div', { className: 'c-card-group c-' + kind, style: '--cols:' + cols }, p.children);
    };
  }
  function callout(kind, title) {
    return function (p) {
      var k = KINDS[kind] || ['circle-info', 'Callout'];
      var label = kind === 'custom' ? str(p.title) || 'Callout' : word(kind, k[1]);
      var c = kind === 'custom' ? color(p.color) : undefined;
      // An `icon` prop (a name or JSX) replaces the kind's own icon, which is the theme's.
      var own = iconNode(p.icon, p.iconType, 'c-callout__icon-svg');
      var icon = own || (str(p.icon) ? null : themeIcon(k[0], 'c-callout__icon-svg'));
      return h('div', { className: 'c-callout c-callout--' + kind, role: 'note', 'aria-label': label || title, style: c ? '--callout-color:' + c : undefined },
        icon ? h('span', { className: 'c-callout__icon' }, icon) : null,
        h('div', { className: 'c-callout__content' }, p.children));
    };
  }
  function Accordion(p) {
    var title = str(p.title) || '';
    var id = str(p.id) || (title ? slugify(title) : undefined);
    return h('details', { className: 'c-accordion', id: id, open: bool(p.defaultOpen) },
      h('summary', { className: 'c-accordion__summary' }, iconNode(p.icon, p.iconType, 'c-accordion__icon'),
        h('span', { className: 'c-accordion__title' }, title),
        str(p.description) ? h('span', { className: 'c-accordion__description' }, p.description) : null),
      h('div', { className: 'c-accordion__body' }, p.children));
  }
  function Expandable(p) {
    return h('details', { className: 'c-expandable', open: bool(p.defaultOpen) },
      h('summary', { className: 'c-expandable__summary' }, h('span', { className: 'c-expandable__verb', 'data-hide': word('hide', 'Hide') }, word('show', 'Show')),
        h('span', { className: 'c-expandable__title' }, str(p.title) || word('properties', 'properties'))),
      h('div', { className: 'c-expandable__body' }, p.children));
  }
  function Steps(p) {
    var n = 0;
    var items = g.preact.toChildArray(p.children).map(function (c) {
      if (c && c.props && c.type === Step) { n++; return h(Step, Object.assign({}, c.props, { __n: n, __inList: true })); }
      return c;
    });
    return h('ol', { className: 'c-steps' }, items);
  }
  function Step(p) {
    var title = str(p.title);
    var icon = iconNode(p.icon, p.iconType, 'c-step__icon');
    var n = num(p.stepNumber) || p.__n || 1;
    var id = str(p.id) || (title ? slugify(title) : undefined);
    var tag = ['p', 'h2', 'h3', 'h4'].indexOf(p.titleSize) >= 0 ? p.titleSize : 'p';
    var anchor = id && !bool(p.noAnchor) ? h('a', { className: 'c-step__anchor', href: '#' + id, 'aria-hidden': 'true', tabIndex: -1 }) : null;
    var li = h('li', { className: 'c-step', id: id },
      h('span', { className: 'c-step__marker', 'aria-hidden': 'true' }, icon || String(n)),
      h('div', { className: 'c-step__body' }, title ? h(tag, { className: 'c-step__title' }, anchor, title) : null,
        h('div', { className: 'c-step__content' }, p.children)));
    return p.__inList ? li : h('ol', { className: 'c-steps' }, li);
  }
  /** renderer/page/components/tabs.ts tabsMarkup: the page's components.js switches the panels. */
  function tabsMarkup(base, items, className, headerExtra) {
    return h('div', { className: 'c-tabs ' + className, 'data-tabs': '' },
      h('div', { className: 'c-tabs__bar' }, h('div', { className: 'c-tabs__list', role: 'tablist' }, items.map(function (item, i) {
        return h('button', { type: 'button', role: 'tab', className: 'c-tabs__tab', id: base + '-tab-' + i, 'aria-controls': base + '-panel-' + i,
          'aria-selected': i === 0 ? 'true' : 'false', tabIndex: i === 0 ? 0 : -1 }, item.icon || null, item.label);
      })), headerExtra || null),
      items.map(function (item, i) {
        return h('div', { className: 'c-tabs__panel', role: 'tabpanel', id: base + '-panel-' + i, 'aria-labelledby': base + '-tab-' + i, tabIndex: 0, hidden: i !== 0 }, item.panel);
      }));
  }
  function Tabs(p) {
    var base = useUid('tabs');
    var items = g.preact.toChildArray(p.children).filter(function (c) { return c && c.props && c.type === Tab; }).map(function (t, i) {
      return { label: str(t.props.title) || 'Tab ' + (i + 1), icon: iconNode(t.props.icon, t.props.iconType, 'c-tabs__icon'), panel: t.props.children };
    });
    return tabsMarkup(base, items, 'c-tabs--content');
  }
  function Tab(p) {
    return h('section', { className: 'c-tab-alone' }, h('p', { className: 'c-tab-alone__title' }, str(p.title) || ''), p.children);
  }
  function Frame(p) {
    return h('figure', { className: 'c-frame' }, str(p.hint) ? h('p', { className: 'c-frame__hint' }, p.hint) : null,
      h('div', { className: 'c-frame__content' }, p.children), str(p.caption) ? h('figcaption', { className: 'c-frame__caption' }, p.caption) : null);
  }
  function Badge(p) {
    var c = str(p.color) || 'gray';
    var size = str(p.size);
    return h('span', { className: cls('c-badge', 'c-badge--' + (BADGE_COLORS.indexOf(c) >= 0 ? c : 'gray'), size && /^(?:xs|sm|md|lg)$/.test(size) && 'c-badge--' + size, p.shape === 'pill' && 'c-badge--pill') },
      iconNode(p.icon, p.iconType, 'c-badge__icon'), p.children);
  }
  function Tooltip(p) {
    var id = useUid('tip');
    var href = str(p.href);
    return h('span', { className: 'c-tooltip' }, h('span', { className: 'c-tooltip__trigger', tabIndex: 0, 'aria-describedby': id }, p.children),
      h('span', { className: 'c-tooltip__bubble', role: 'tooltip', id: id }, str(p.tip) || str(p.headline) || '',
        href && str(p.cta) ? [' ', h('a', { href: href }, p.cta)] : null));
  }
  var COPY = function (label) {
    return h('button', { type: 'button', className: 'c-code__copy', 'data-copy-code': '', 'aria-label': label || 'Copy code' }, h('span', { className: 'c-code__copy-status', 'aria-live': 'polite' }));
  };
  function codeText(children) {
    return g.preact.toChildArray(children).map(function (c) { return typeof c === 'string' || typeof c === 'number' ? String(c) : c; });
  }
  function pre(p) {
    var lang = str(p.language) || str(p.lang);
    return h('pre', { className: 'c-code__pre' }, h('code', { className: 'hljs' + (lang ? ' language-' + lang : '') }, codeText(p.children)));
  }
  /** Mintlify's React <CodeBlock filename language icon>: the code frame of a fenced block, without highlighting. */
  function CodeBlock(p) {
    var filename = str(p.filename);
    var lang = str(p.language) || str(p.lang);
    var label = filename || lang;
    return h('div', { className: 'c-code', 'data-code-block': '' },
      h('div', { className: 'c-code__header' }, iconNode(p.icon, p.iconType, 'c-code__icon'),
        h('span', { className: label && !filename ? 'c-code__title c-code__title--lang' : 'c-code__title' }, label || null), COPY()),
      pre(p));
  }
  function CodeGroup(p) {
    var blocks = g.preact.toChildArray(p.children).filter(function (c) { return c && c.props && c.type === CodeBlock; });
    var base = useUid('tabs');
    if (blocks.length < 2) return h('div', { className: 'c-code-group' }, p.children);
    var items = blocks.map(function (b, i) {
      return { label: str(b.props.filename) || str(b.props.language) || 'Tab ' + (i + 1), panel: pre(b.props) };
    });
    return h('div', { className: 'c-code c-code-group', 'data-code-block': '' }, tabsMarkup(base, items, 'c-tabs--code', COPY()));
  }
  function field(kind, nameProp) {
    return function (p) {
      var location;
      if (kind === 'param') ['query', 'path', 'body', 'header', 'cookie'].forEach(function (l) { if (!location && str(p[l]) !== undefined) location = l; });
      var name = kind === 'param' ? (location ? str(p[location]) : str(p.name) || str(p.param)) : str(p[nameProp]);
      var id = str(p.id) || (name ? 'param-' + kebabName(name) : undefined);
      var def = p['default'];
      return h('div', { className: 'c-field c-field--' + kind, id: id },
        h('div', { className: 'c-field__head' },
          id ? h('a', { className: 'c-field__anchor', href: '#' + id, 'aria-hidden': 'true', tabIndex: -1 }) : null,
          name ? h('code', { className: 'c-field__name' }, name) : null,
          str(p.type) ? h('span', { className: 'c-field__type' }, p.type) : null,
          location ? h('span', { className: 'c-field__location' }, location) : null,
          bool(p.required) ? h('span', { className: 'c-field__badge c-field__badge--required' }, word('required', 'required')) : null,
          bool(p.deprecated) ? h('span', { className: 'c-field__badge c-field__badge--deprecated' }, word('deprecated', 'deprecated')) : null,
          def !== undefined ? h('span', { className: 'c-field__default' }, word('defaultValue', 'default') + ': ', h('code', null, typeof def === 'string' ? def : JSON.stringify(def))) : null),
        p.children != null ? h('div', { className: 'c-field__body' }, p.children) : null);
    };
  }
  function Update(p) {
    var label = str(p.label) || '';
    var tags = Array.isArray(p.tags) ? p.tags : typeof p.tags === 'string' ? p.tags.split(',').map(function (t) { return t.trim(); }).filter(Boolean) : [];
    return h('section', { className: 'c-update', id: label ? slugify(label) : undefined },
      h('div', { className: 'c-update__meta' }, h('p', { className: 'c-update__label' }, label),
        str(p.description) ? h('p', { className: 'c-update__description' }, p.description) : null,
        tags.length ? h('ul', { className: 'c-update__tags' }, tags.map(function (t) { return h('li', null, t); })) : null),
      h('div', { className: 'c-update__body' }, p.children));
  }
  function Link(p) {
    var href = str(p.href);
    if (href === undefined) return p.children === undefined ? null : p.children;
    return h('a', { href: href, title: str(p.title), rel: /^https?:\/\//i.test(href) ? 'noopener noreferrer' : undefined }, p.children);
  }
  function passthrough(p) {
    return p.children === undefined ? null : p.children;
  }
  g.__mintComponents = {
    Icon: Icon, Card: Card, CardGroup: group('card-group--cards'), Columns: group('columns'), Column: function (p) { return h('div', { className: 'c-column' }, p.children); },
    Note: callout('note'), Tip: callout('tip'), Info: callout('info'), Warning: callout('warning'), Check: callout('check'), Danger: callout('danger'), Callout: callout('custom'),
    Accordion: Accordion, AccordionGroup: function (p) { return h('div', { className: 'c-accordion-group' }, p.children); }, Expandable: Expandable,
    Steps: Steps, Step: Step, Tabs: Tabs, Tab: Tab, Frame: Frame, Badge: Badge, Tooltip: Tooltip, CodeBlock: CodeBlock, CodeGroup: CodeGroup,
    ParamField: field('param'), ResponseField: field('response', 'name'), Update: Update, Panel: function (p) { return h('aside', { className: 'c-panel' }, p.children); },
    Link: Link, Snippet: passthrough
  };
  g.__mintPassthrough = passthrough;
})(globalThis);
