/*
 * Mintlify's own components for code that runs in the reader's browser (and in the pre-render
 * sandbox): the same markup and classes as the export-time renderer (renderer/page/components),
 * simplified. Plain ES5-style script; needs the globals `preact` and `preactHooks`.
 */
(function (g) {
  'use strict';
  var h = g.preact.h;
  var useState = g.preactHooks.useState;
  function cls() {
    var out = [];
    for (var i = 0; i < arguments.length; i++) if (arguments[i]) out.push(arguments[i]);
    return out.join(' ');
  }
  function Icon(p) {
    var svg = p && p.icon && g.__mintIslands && g.__mintIslands.icon(p.icon);
    if (!svg) return null;
    return h('span', { className: cls('c-icon-wrap', p.className), style: p.color ? { color: p.color } : undefined, 'aria-hidden': 'true', dangerouslySetInnerHTML: { __html: svg } });
  }
  function Card(p) {
    var title = p.title;
    var link = p.href ? h('a', { className: 'c-card__link', href: p.href }, title) : title;
    return h('div', { className: cls('c-card', p.horizontal && 'c-card--horizontal', p.href && 'c-card--link') },
      p.img ? h('img', { className: 'c-card__img', src: p.img, alt: '', loading: 'lazy' }) : null,
      p.icon ? h('span', { className: 'c-card__icon', style: p.color ? { color: p.color } : undefined }, typeof p.icon === 'string' ? h(Icon, { icon: p.icon }) : p.icon) : null,
      h('div', { className: 'c-card__body' },
        title ? h('p', { className: 'c-card__title' }, link) : null,
        p.children != null ? h('div', { className: 'c-card__content' }, p.children) : null,
        p.cta ? h('span', { className: 'c-card__cta', 'aria-hidden': 'true' }, p.cta) : null));
  }
  function group(kind) {
    return function (p) {
      return h('div', { className: 'c-card-group c-' + kind, style: { '--cols': p.cols || 2 } }, p.children);
    };
  }
  function callout(kind) {
    return function (p) {
      return h('div', { className: 'c-callout c-callout--' + kind, role: 'note' },
        p.icon ? h('span', { className: 'c-callout__icon' }, h(Icon, { icon: p.icon })) : null,
        h('div', { className: 'c-callout__content' }, p.children));
    };
  }
  function Accordion(p) {
    return h('details', { className: 'c-accordion', open: !!p.defaultOpen },
      h('summary', { className: 'c-accordion__summary' }, h('span', { className: 'c-accordion__title' }, p.title),
        p.description ? h('span', { className: 'c-accordion__description' }, p.description) : null),
      h('div', { className: 'c-accordion__body' }, p.children));
  }
  function Expandable(p) {
    return h('details', { className: 'c-expandable', open: !!p.defaultOpen },
      h('summary', { className: 'c-expandable__summary' }, h('span', { className: 'c-expandable__verb' }, 'Show'), h('span', { className: 'c-expandable__title' }, p.title)),
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
    var li = h('li', { className: 'c-step' }, h('span', { className: 'c-step__marker', 'aria-hidden': 'true' }, p.stepNumber || p.__n || 1),
      h('div', { className: 'c-step__body' }, p.title ? h('p', { className: 'c-step__title' }, p.title) : null, h('div', { className: 'c-step__content' }, p.children)));
    return p.__inList ? li : h('ol', { className: 'c-steps' }, li);
  }
  function Tabs(p) {
    var tabs = g.preact.toChildArray(p.children).filter(function (c) { return c && c.props; });
    var st = useState(0);
    return h('div', { className: 'c-tabs' },
      h('div', { className: 'c-tabs__bar' }, h('div', { className: 'c-tabs__list', role: 'tablist' }, tabs.map(function (t, i) {
        return h('button', { type: 'button', role: 'tab', className: 'c-tabs__tab', 'aria-selected': i === st[0] ? 'true' : 'false', onClick: function () { st[1](i); } }, t.props.title);
      }))),
      tabs.map(function (t, i) {
        return h('div', { className: 'c-tabs__panel', role: 'tabpanel', hidden: i !== st[0] }, t.props.children);
      }));
  }
  function Tab(p) {
    return h('section', { className: 'c-tab-alone' }, h('p', { className: 'c-tab-alone__title' }, p.title), p.children);
  }
  function Frame(p) {
    return h('figure', { className: 'c-frame' }, h('div', { className: 'c-frame__inner' }, p.children), p.caption ? h('figcaption', { className: 'c-frame__caption' }, p.caption) : null);
  }
  function Badge(p) {
    return h('span', { className: 'c-badge' }, p.children);
  }
  function Tooltip(p) {
    return h('span', { className: 'c-tooltip', title: p.tip }, p.children);
  }
  function CodeBlock(p) {
    return h('div', { className: 'c-code' }, h('pre', null, h('code', null, p.children)));
  }
  function passthrough(p) {
    return p.children === undefined ? null : p.children;
  }
  g.__mintComponents = {
    Icon: Icon, Card: Card, CardGroup: group('cards'), Columns: group('columns'), Column: function (p) { return h('div', { className: 'c-column' }, p.children); },
    Note: callout('note'), Tip: callout('tip'), Info: callout('info'), Warning: callout('warning'), Check: callout('check'), Danger: callout('danger'), Callout: callout('note'),
    Accordion: Accordion, AccordionGroup: function (p) { return h('div', { className: 'c-accordion-group' }, p.children); }, Expandable: Expandable,
    Steps: Steps, Step: Step, Tabs: Tabs, Tab: Tab, Frame: Frame, Badge: Badge, Tooltip: Tooltip, CodeBlock: CodeBlock, CodeGroup: passthrough,
    ParamField: passthrough, ResponseField: passthrough, Update: passthrough, Snippet: passthrough
  };
  g.__mintPassthrough = passthrough;
})(globalThis);
