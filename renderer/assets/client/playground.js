/*
 * The API playground ("Try it") of API pages (renderer/openapi/playground.ts writes the
 * placeholder and its request description). Sends the request from the reader's browser: to the
 * spec's servers, or, when the appliance serves the site, to the base URL its operator configured
 * (GET /_/playground/config), directly when the origin is allowed, or through the site listener's
 * proxy (/_/playground/proxy) when the operator turned it on and docs.json did not turn it off.
 * Credentials typed here stay in this tab (sessionStorage) and go only with the request.
 * Plain script, no inline handlers, no outside assets; DOM built with textContent only.
 */
(function () {
  'use strict';

  // The words in the page's language: words.js, put in front of this file (renderer/theme/assets.ts).
  var t = docsWord;

  var CONFIG_URL = '/_/playground/config';
  var PROXY_URL = '/_/playground/proxy';
  var STORE = 'docs-playground:';
  var TIMEOUT_MS = 30000;
  var MAX_SHOWN = 512 * 1024;
  var uid = 0;

  // ---- small DOM helpers ------------------------------------------------------------------

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === false || v === null) return;
      if (k === 'text') node.textContent = v;
      else if (k === 'className') node.className = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    });
    (children || []).forEach(function (c) {
      if (c) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }

  function store(key, value) {
    try {
      if (value === undefined) return sessionStorage.getItem(STORE + key) || '';
      if (value === '') sessionStorage.removeItem(STORE + key);
      else sessionStorage.setItem(STORE + key, value);
    } catch (e) {
      // Storage refused (private mode): the value lives only in the form.
    }
    return '';
  }

  // ---- where requests go ------------------------------------------------------------------

  var siteConfig;
  /** The appliance's per-project settings; {served: false} on any other host. */
  function loadSiteConfig() {
    if (!siteConfig) {
      // Not on the appliance (site.js's status): no request for its settings, which would only fail.
      var status = window.docsApplianceStatus || Promise.resolve({});
      siteConfig = status.then(function (s) {
        if (s && s.appliance === false) return { served: false };
        return fetch(CONFIG_URL, { credentials: 'same-origin', headers: { accept: 'application/json' } })
          .then(function (res) {
            var type = res.headers.get('content-type') || '';
            if (!res.ok || type.indexOf('application/json') !== 0) return { served: false };
            return res.json().then(function (c) {
              return { served: true, baseUrl: c.baseUrl || '', origins: c.allowedOrigins || [], proxy: c.proxy === true };
            });
          })
          .catch(function () {
            return { served: false };
          });
      });
    }
    return siteConfig;
  }

  function originOf(url) {
    try {
      return new URL(url).origin;
    } catch (e) {
      return '';
    }
  }

  // ---- the request description --------------------------------------------------------------

  /** Hand-written pages: the page's own top-level ParamFields. */
  function paramsFromPage(root) {
    var params = [];
    var body = [];
    var scope = root.closest('article, main') || document;
    scope.querySelectorAll('.c-field--param').forEach(function (field) {
      if (field.parentElement && field.parentElement.closest('.c-field')) return;
      var loc = field.querySelector(':scope > .c-field__head .c-field__location');
      var name = field.querySelector(':scope > .c-field__head .c-field__name');
      if (!name) return;
      var type = field.querySelector(':scope > .c-field__head .c-field__type');
      var def = field.querySelector(':scope > .c-field__head .c-field__default code');
      var p = {
        name: name.textContent,
        in: loc ? loc.textContent : 'body',
        required: !!field.querySelector(':scope > .c-field__head .c-field__badge--required'),
        type: type ? type.textContent : 'string',
        placeholder: def ? def.textContent : '',
      };
      if (p.in === 'body') body.push(p);
      else params.push(p);
    });
    return { params: params, body: body };
  }

  function sample(type, fallback) {
    if (fallback) {
      if (/^(integer|number)/.test(type) && !isNaN(Number(fallback))) return Number(fallback);
      if (/^boolean/.test(type) && (fallback === 'true' || fallback === 'false')) return fallback === 'true';
      return fallback;
    }
    if (/\[\]$|^array/.test(type)) return [];
    if (/^(integer|number)/.test(type)) return 0;
    if (/^boolean/.test(type)) return true;
    if (/^object/.test(type)) return {};
    return '';
  }

  function describe(root) {
    var req;
    try {
      req = JSON.parse(root.getAttribute('data-request') || '{}');
    } catch (e) {
      return undefined;
    }
    if (req.fromPage) {
      var found = paramsFromPage(root);
      req.params = found.params;
      var named = {};
      found.params.forEach(function (p) {
        if (p.in === 'path') named[p.name] = true;
      });
      (req.path.match(/\{[^}]+\}/g) || []).forEach(function (m) {
        var name = m.slice(1, -1);
        if (!named[name]) req.params.push({ name: name, in: 'path', required: true, type: 'string' });
      });
      if (found.body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD') {
        var skeleton = {};
        found.body.forEach(function (p) {
          skeleton[p.name] = sample(p.type, p.placeholder);
        });
        req.body = { type: 'application/json', placeholder: JSON.stringify(skeleton, null, 2) };
      }
    }
    return req;
  }

  // ---- the form -----------------------------------------------------------------------------

  function input(id, p, value) {
    var values = p.enum || (/^boolean/.test(p.type) ? ['true', 'false'] : undefined);
    if (values) {
      var select = el('select', { id: id, className: 'pg-input' }, [el('option', { value: '', text: p.required ? t('choose') : t('notSent') })]);
      values.forEach(function (v) {
        select.appendChild(el('option', { value: v, text: v }));
      });
      select.value = value || '';
      return select;
    }
    return el('input', { id: id, className: 'pg-input', type: 'text', value: value || '', placeholder: p.placeholder || '', spellcheck: 'false', autocomplete: 'off' });
  }

  function row(labelText, control, extra) {
    var required = extra && extra.required;
    return el('div', { className: 'pg-row' }, [
      el('label', { for: control.id, className: 'pg-label' }, [
        el('code', { text: labelText }),
        extra && extra.type ? el('span', { className: 'pg-type', text: extra.type }) : null,
        required ? el('span', { className: 'pg-required', text: t('required') }) : null,
      ]),
      control,
    ]);
  }

  function authInputs(scheme, prefix) {
    var key = location.host + ':' + scheme.name;
    var fields = [];
    function secret(label, sub, type) {
      var id = prefix + '-' + sub;
      // The scheme's x-default fills the key or token until the reader types their own.
      var start = store(key + ':' + sub) || (sub === 'token' || sub === 'key' ? scheme.value || '' : '');
      var box = el('input', { id: id, className: 'pg-input', type: type || 'password', autocomplete: 'off', spellcheck: 'false', value: start });
      box.addEventListener('input', function () {
        store(key + ':' + sub, box.value);
      });
      fields.push({ sub: sub, box: box });
      return row(label, box);
    }
    var rows = [];
    if (scheme.kind === 'basic') {
      rows.push(secret(t('username'), 'user', 'text'));
      rows.push(secret(t('password'), 'password'));
    } else if (scheme.kind === 'bearer' || scheme.kind === 'oauth2') {
      rows.push(secret(scheme.kind === 'oauth2' ? t('accessToken') + ' (' + scheme.name + ')' : t('bearerToken'), 'token'));
    } else if (scheme.kind === 'apiKey') {
      rows.push(secret(scheme.param + ' (' + scheme.in + ')', 'key'));
    } else {
      rows.push(el('p', { className: 'pg-note', text: scheme.name + ': this kind of authentication cannot be filled in here.' }));
    }
    return {
      rows: rows,
      apply: function (out) {
        var v = {};
        fields.forEach(function (f) {
          v[f.sub] = f.box.value;
        });
        if (scheme.kind === 'basic' && (v.user || v.password)) out.headers.Authorization = 'Basic ' + btoa(unescape(encodeURIComponent((v.user || '') + ':' + (v.password || ''))));
        else if ((scheme.kind === 'bearer' || scheme.kind === 'oauth2') && v.token) out.headers.Authorization = 'Bearer ' + v.token;
        else if (scheme.kind === 'apiKey' && v.key) {
          if (scheme.in === 'query') out.query.push([scheme.param, v.key]);
          else if (scheme.in === 'cookie') out.cookies.push([scheme.param, v.key]);
          else out.headers[scheme.param] = v.key;
        }
      },
    };
  }

  function section(title, children) {
    return el('fieldset', { className: 'pg-section' }, [el('legend', { text: title })].concat(children));
  }

  // ---- sending and showing ------------------------------------------------------------------

  /**
   * [name, value] pairs for a parameter as typed, by its style and explode (the page's request
   * examples do the same, renderer/openapi/param-style.ts): an array is typed as `a,b` (or JSON),
   * an object as JSON. Anything else, or what does not read, is sent as typed.
   */
  function serialized(p, v) {
    if (p.shape === 'array') {
      var items;
      try {
        items = /^\s*\[/.test(v) ? JSON.parse(v) : null;
      } catch (e) {
        items = null;
      }
      if (!Array.isArray(items)) items = v.split(',').map(function (x) { return x.trim(); });
      items = items.map(function (x) { return typeof x === 'string' ? x : JSON.stringify(x); });
      if (p.in === 'query' && p.style === 'form' && p.explode) return items.map(function (x) { return [p.name, x]; });
      var sep = p.style === 'spaceDelimited' ? ' ' : p.style === 'pipeDelimited' ? '|' : ',';
      return [[p.name, items.join(sep)]];
    }
    if (p.shape === 'object') {
      var obj;
      try {
        obj = JSON.parse(v);
      } catch (e) {
        obj = null;
      }
      if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
        var entries = Object.keys(obj).map(function (k) { return [k, typeof obj[k] === 'string' ? obj[k] : JSON.stringify(obj[k])]; });
        if (p.in === 'query' && p.style === 'deepObject') return entries.map(function (e) { return [p.name + '[' + e[0] + ']', e[1]]; });
        // A property holding a list repeats its key (Spring's Pageable: sort=a&sort=b), as the examples show.
        if (p.in === 'query' && p.style === 'form' && p.explode) {
          return Object.keys(obj).reduce(function (out, k) {
            (Array.isArray(obj[k]) ? obj[k] : [obj[k]]).forEach(function (x) {
              out.push([k, typeof x === 'string' ? x : JSON.stringify(x)]);
            });
            return out;
          }, []);
        }
        return [[p.name, entries.map(function (e) { return p.explode ? e[0] + '=' + e[1] : e[0] + ',' + e[1]; }).join(',')]];
      }
    }
    return [[p.name, v]];
  }

  function explain(kind, detail) {
    var p = el('div', { className: 'pg-error', role: 'alert' }, [el('strong', { text: kind }), el('p', { text: detail })]);
    return p;
  }

  function showResponse(out, res, ms, bodyText, via) {
    out.textContent = '';
    // Through the proxy a redirect arrives as 200 with the API's status beside it.
    var status = Number(res.headers.get('x-playground-status')) || res.status;
    var ok = status >= 200 && status < 300;
    out.appendChild(
      el('div', { className: 'pg-status' }, [
        el('span', { className: 'pg-badge ' + (ok ? 'pg-badge--ok' : status >= 400 ? 'pg-badge--bad' : 'pg-badge--info'), text: String(status) + (status === res.status && res.statusText ? ' ' + res.statusText : '') }),
        el('span', { className: 'pg-time', text: Math.round(ms) + ' ms' }),
        el('span', { className: 'pg-via', text: via }),
      ]),
    );
    var headers = el('dl', { className: 'pg-headers' });
    res.headers.forEach(function (value, name) {
      if (/^x-playground-/i.test(name)) return;
      headers.appendChild(el('dt', { text: name }));
      headers.appendChild(el('dd', { text: value }));
    });
    out.appendChild(el('details', { className: 'pg-headers-box' }, [el('summary', { text: t('headers') }), headers]));
    var type = res.headers.get('content-type') || '';
    var shown = bodyText;
    if (/json/i.test(type)) {
      try {
        shown = JSON.stringify(JSON.parse(bodyText), null, 2);
      } catch (e) {
        // Not valid JSON after all: shown as sent.
      }
    }
    if (shown.length > MAX_SHOWN) shown = shown.slice(0, MAX_SHOWN) + '\n… (' + (bodyText.length - MAX_SHOWN) + ' more characters not shown)';
    out.appendChild(el('pre', { className: 'pg-body', tabindex: '0', 'aria-label': t('responseBody') }, [el('code', { text: shown || t('emptyBody') })]));
  }

  function readBody(res) {
    var type = res.headers.get('content-type') || '';
    if (/^(image|audio|video)\/|octet-stream|pdf|zip/i.test(type)) {
      return res.arrayBuffer().then(function (buf) {
        return '(' + type + ', ' + buf.byteLength + ' bytes: not shown)';
      });
    }
    return res.text();
  }

  function build(root, req) {
    var n = ++uid;
    var prefix = 'pg' + n;
    var trigger = el('button', { type: 'button', className: 'pg-try', 'aria-haspopup': 'dialog', text: t('tryIt') });
    var header = root.previousElementSibling && root.previousElementSibling.classList.contains('c-endpoint') ? root.previousElementSibling : root;
    header.appendChild(trigger);

    var dialog = el('dialog', { className: 'pg-dialog', 'aria-labelledby': prefix + '-title' });
    var form = el('form', { className: 'pg-form', novalidate: true });
    var title = el('h2', { id: prefix + '-title', className: 'pg-title' }, [
      el('span', { className: 'c-endpoint__method c-endpoint__method--' + req.method.toLowerCase(), text: req.method }),
      el('code', { text: req.path }),
    ]);
    var close = el('button', { type: 'button', className: 'pg-close', 'aria-label': t('close') }, ['×']);
    form.appendChild(el('div', { className: 'pg-head' }, [title, close]));

    var serverSelect;
    var target = el('p', { className: 'pg-target' });
    form.appendChild(target);
    if (req.servers.length > 1) {
      serverSelect = el('select', { id: prefix + '-server', className: 'pg-input' });
      req.servers.forEach(function (s) {
        serverSelect.appendChild(el('option', { value: s, text: s }));
      });
      form.appendChild(row(t('server'), serverSelect));
    }
    // The chosen server's variables (`{region}`): a list when the spec gives an `enum`, else a text
    // box, each starting at the value the page's examples show. Rebuilt when the server changes.
    var templates = req.serverTemplates || [];
    var variableBox = el('div');
    form.appendChild(variableBox);
    var variableInputs = [];
    function serverIndex() {
      return serverSelect ? Math.max(0, req.servers.indexOf(serverSelect.value)) : 0;
    }
    function renderVariables() {
      variableBox.textContent = '';
      variableInputs = [];
      var tpl = templates[serverIndex()];
      if (!tpl) return;
      tpl.variables.forEach(function (v, i) {
        var id = prefix + '-var' + i;
        var control;
        if (v.enum && v.enum.length > 0) {
          control = el('select', { id: id, className: 'pg-input' });
          v.enum.forEach(function (option) {
            control.appendChild(el('option', { value: option, text: option }));
          });
          control.value = v.default;
        } else {
          control = el('input', { id: id, className: 'pg-input', type: 'text', value: v.default, spellcheck: 'false', autocomplete: 'off' });
        }
        variableInputs.push({ v: v, box: control });
        variableBox.appendChild(row(v.name, control, { type: 'server variable' }));
      });
    }
    /** The chosen server's URL with the variables as chosen. */
    function chosenServer() {
      var i = serverIndex();
      var tpl = templates[i];
      if (!tpl) return req.servers[i] || '';
      var url = tpl.url;
      variableInputs.forEach(function (vi) {
        url = url.split('{' + vi.v.name + '}').join(vi.box.value);
      });
      return url;
    }
    renderVariables();
    if (serverSelect) serverSelect.addEventListener('change', renderVariables);

    var auth;
    if (req.security.length > 0) {
      var authBox = el('div');
      var authSelect;
      var current = [];
      var renderAuth = function (i) {
        authBox.textContent = '';
        current = req.security[i].map(function (scheme, j) {
          var a = authInputs(scheme, prefix + '-auth' + i + '-' + j);
          a.rows.forEach(function (r) {
            authBox.appendChild(r);
          });
          return a;
        });
      };
      var authChildren = [];
      if (req.security.length > 1) {
        authSelect = el('select', { id: prefix + '-authsel', className: 'pg-input' });
        req.security.forEach(function (alt, i) {
          authSelect.appendChild(el('option', { value: String(i), text: alt.map(function (s) { return s.name; }).join(' + ') || t('none') }));
        });
        authSelect.addEventListener('change', function () {
          renderAuth(Number(authSelect.value));
        });
        authChildren.push(row(t('authMethod'), authSelect));
      }
      authChildren.push(authBox);
      renderAuth(0);
      form.appendChild(section(t('authorization'), authChildren));
      auth = function (out) {
        current.forEach(function (a) {
          a.apply(out);
        });
      };
    }

    var paramBoxes = [];
    [['path', t('pathParams')], ['query', t('queryParams')], ['header', t('headers')], ['cookie', t('cookies')]].forEach(function (group) {
      var list = req.params.filter(function (p) {
        return p.in === group[0];
      });
      if (list.length === 0) return;
      form.appendChild(
        section(
          group[1],
          list.map(function (p, i) {
            var box = input(prefix + '-' + group[0] + i, p, p.value);
            paramBoxes.push({ p: p, box: box });
            return row(p.name, box, { required: p.required, type: p.type });
          }),
        ),
      );
    });

    var bodyBox;
    var fileBoxes = [];
    if (req.body) {
      bodyBox = el('textarea', { id: prefix + '-body', className: 'pg-input pg-textarea', rows: '10', spellcheck: 'false', placeholder: req.body.placeholder || '' });
      bodyBox.value = req.body.value || '';
      var useExample = req.body.placeholder
        ? el('button', { type: 'button', className: 'pg-link', text: t('fillExample') })
        : null;
      if (useExample) {
        useExample.addEventListener('click', function () {
          bodyBox.value = req.body.placeholder;
          bodyBox.focus();
        });
      }
      var fileRows = (req.body.files || []).map(function (name, i) {
        var box = el('input', { type: 'file', id: prefix + '-file' + i, className: 'pg-input pg-file' });
        box.multiple = true;
        fileBoxes.push({ name: name, box: box });
        return row(name, box, { type: 'file' });
      });
      form.appendChild(section(t('body'), [row(req.body.type, bodyBox), useExample].concat(fileRows)));
    }

    var send = el('button', { type: 'submit', className: 'pg-send', text: t('send') });
    form.appendChild(el('div', { className: 'pg-actions' }, [send]));
    var out = el('div', { className: 'pg-output', 'aria-live': 'polite' });
    form.appendChild(out);
    dialog.appendChild(form);
    document.body.appendChild(dialog);

    function compose(cfg) {
      var r = { headers: {}, query: [], cookies: [] };
      var missing = [];
      var path = req.path;
      paramBoxes.forEach(function (pb) {
        var v = pb.box.value;
        if (v === '') {
          if (pb.p.required) missing.push(pb.p.name);
          return;
        }
        var parts = serialized(pb.p, v);
        if (pb.p.in === 'path') path = path.split('{' + pb.p.name + '}').join(encodeURIComponent(parts[0][1]));
        else if (pb.p.in === 'query') r.query = r.query.concat(parts);
        else if (pb.p.in === 'header') r.headers[pb.p.name] = parts[0][1];
        else r.cookies = r.cookies.concat(parts);
      });
      if (auth) auth(r);
      var base;
      if (/^https?:\/\//i.test(path)) {
        if (cfg.baseUrl) {
          var u = new URL(path);
          path = u.pathname + u.search;
          base = cfg.baseUrl;
        } else base = '';
      } else base = cfg.baseUrl || chosenServer();
      var url = base ? base.replace(/\/+$/, '') + (path.charAt(0) === '/' ? '' : '/') + path : path;
      if (r.query.length > 0) {
        url += (url.indexOf('?') >= 0 ? '&' : '?') + r.query.map(function (q) {
          return encodeURIComponent(q[0]) + '=' + encodeURIComponent(q[1]);
        }).join('&');
      }
      var body;
      if (bodyBox && bodyBox.value !== '' && req.method !== 'GET' && req.method !== 'HEAD') {
        body = bodyBox.value;
        if (/x-www-form-urlencoded|multipart\/form-data/.test(req.body.type)) {
          try {
            var obj = JSON.parse(body);
            var fields = /multipart/.test(req.body.type) ? new FormData() : new URLSearchParams();
            var deep = req.body.deep || [];
            // A deepObject field (the body's encoding says so) goes with brackets: a[b]=1, a[]=x.
            var bracketed = function (key, v) {
              if (Array.isArray(v)) v.forEach(function (item) { bracketed(key + '[]', item); });
              else if (v !== null && typeof v === 'object') Object.keys(v).forEach(function (k2) { bracketed(key + '[' + k2 + ']', v[k2]); });
              else fields.append(key, typeof v === 'string' ? v : JSON.stringify(v));
            };
            Object.keys(obj).forEach(function (k) {
              if (deep.indexOf(k) >= 0) return bracketed(k, obj[k]);
              // An array field is one part (or pair) per item, as the request examples show.
              (Array.isArray(obj[k]) ? obj[k] : [obj[k]]).forEach(function (item) {
                fields.append(k, typeof item === 'string' ? item : JSON.stringify(item));
              });
            });
            body = fields;
          } catch (e) {
            // Sent as typed.
          }
        }
        if (!(body instanceof FormData)) r.headers['Content-Type'] = req.body.type;
      }
      if (fileBoxes.length > 0 && req.method !== 'GET' && req.method !== 'HEAD') {
        if (!(body instanceof FormData)) {
          var form2 = new FormData();
          if (body instanceof URLSearchParams) body.forEach(function (v2, k2) { form2.append(k2, v2); });
          body = form2;
          delete r.headers['Content-Type'];
        }
        fileBoxes.forEach(function (fb) {
          Array.prototype.forEach.call(fb.box.files || [], function (f) {
            body.append(fb.name, f, f.name);
          });
        });
      }
      return { url: url, headers: r.headers, cookies: r.cookies, body: body, missing: missing };
    }

    function refreshTarget() {
      loadSiteConfig().then(function (cfg) {
        var c = compose(cfg);
        target.textContent = '';
        target.appendChild(el('span', { className: 'pg-target__label', text: t('sendsTo') + ' ' }));
        target.appendChild(el('code', { text: c.url }));
      });
    }
    form.addEventListener('input', refreshTarget);
    form.addEventListener('change', refreshTarget);

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      loadSiteConfig().then(function (cfg) {
        var c = compose(cfg);
        out.textContent = '';
        if (c.missing.length > 0) {
          out.appendChild(explain(t('missingValues'), t('fillIn', { names: c.missing.join(', ') })));
          return;
        }
        var origin = originOf(c.url);
        if (!origin) {
          out.appendChild(explain(t('noServer'), t('noServerText')));
          return;
        }
        var viaProxy = cfg.served && cfg.proxy && req.proxy;
        if (cfg.served && cfg.origins.indexOf(origin) < 0) {
          out.appendChild(
            explain(
              t('originNotAllowed'),
              cfg.origins.length === 0
                ? 'The operator of this site has allowed no API origin for the playground, so ' + origin + ' cannot be called from here.'
                : 'This site may send requests only to the API origins its operator allowed (' + cfg.origins.join(', ') + '), and ' + origin + ' is not one of them.',
            ),
          );
          return;
        }
        var headers = {};
        Object.keys(c.headers).forEach(function (k) {
          headers[k] = c.headers[k];
        });
        var cookie = c.cookies.map(function (kv) {
          return kv[0] + '=' + kv[1];
        }).join('; ');
        if (cookie && !viaProxy) {
          out.appendChild(explain(t('cookiesNotSent'), t('cookiesNotSentText')));
        }
        var url = c.url;
        if (viaProxy) {
          headers['X-Playground-Url'] = c.url;
          if (cookie) headers['X-Playground-Cookie'] = cookie;
          url = PROXY_URL;
        }
        var controller = new AbortController();
        var timer = setTimeout(function () {
          controller.abort();
        }, TIMEOUT_MS);
        send.disabled = true;
        send.textContent = t('sending');
        var started = performance.now();
        fetch(url, {
          method: req.method,
          headers: headers,
          body: c.body,
          mode: viaProxy ? 'same-origin' : 'cors',
          credentials: viaProxy ? 'same-origin' : req.credentials ? 'include' : 'omit',
          redirect: viaProxy ? 'manual' : 'follow',
          signal: controller.signal,
          cache: 'no-store',
        })
          .then(function (res) {
            var problem = res.headers.get('x-playground-error');
            return readBody(res).then(function (text) {
              var ms = performance.now() - started;
              if (problem) {
                var message = text;
                try {
                  message = JSON.parse(text).error.message;
                } catch (e) {
                  // Plain text already.
                }
                out.appendChild(explain(problem === 'ORIGIN_NOT_ALLOWED' ? t('originNotAllowed') : t('proxyFailed'), message));
                return;
              }
              showResponse(out, res, ms, text, viaProxy ? t('viaProxy') : t('viaBrowser'));
            });
          })
          .catch(function (err) {
            if (err && err.name === 'AbortError') {
              out.appendChild(explain(t('noAnswer'), t('noAnswerText', { seconds: TIMEOUT_MS / 1000 })));
            } else if (viaProxy) {
              out.appendChild(explain(t('networkError'), t('networkErrorText')));
            } else {
              out.appendChild(
                explain(
                  t('browserFailed'),
                  'Either ' + origin + ' is unreachable from your network, or it does not allow requests from this site (CORS: it must answer with Access-Control-Allow-Origin: ' + location.origin + '). The browser does not say which.',
                ),
              );
            }
          })
          .then(function () {
            clearTimeout(timer);
            send.disabled = false;
            send.textContent = t('send');
          });
      });
    });

    trigger.addEventListener('click', function () {
      refreshTarget();
      dialog.showModal();
      var first = form.querySelector('.pg-input');
      if (first) first.focus();
    });
    close.addEventListener('click', function () {
      dialog.close();
    });
    dialog.addEventListener('close', function () {
      trigger.focus();
    });
    // A click on the backdrop (the dialog element itself, outside the form) closes it.
    dialog.addEventListener('click', function (event) {
      if (event.target === dialog) dialog.close();
    });
  }

  /** `simple`: a copy button for the endpoint's URL, no form. */
  function buildSimple(root, req) {
    var header = root.previousElementSibling && root.previousElementSibling.classList.contains('c-endpoint') ? root.previousElementSibling : root;
    var button = el('button', { type: 'button', className: 'pg-copy', text: t('copyUrl') });
    header.appendChild(button);
    button.addEventListener('click', function () {
      loadSiteConfig().then(function (cfg) {
        var base = /^https?:\/\//i.test(req.path) ? '' : cfg.baseUrl || req.servers[0] || '';
        var url = base ? base.replace(/\/+$/, '') + req.path : req.path;
        var done = function () {
          button.textContent = t('copied');
          setTimeout(function () {
            button.textContent = t('copyUrl');
          }, 2000);
        };
        if (navigator.clipboard) navigator.clipboard.writeText(url).then(done, function () {});
      });
    });
  }

  // ---- prefill from the signed-in reader (issue 40, create/personalization.mdx) ------------

  function own(obj, key) {
    return obj && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key) && typeof obj[key] === 'string' ? obj[key] : undefined;
  }
  /** The value of `name` in one of `apiPlaygroundInputs`' groups, header names in any case. */
  function inputOf(group, name, anyCase) {
    if (!group || typeof group !== 'object') return undefined;
    if (!anyCase) return own(group, name);
    var found;
    Object.keys(group).forEach(function (k) {
      if (found === undefined && k.toLowerCase() === name.toLowerCase()) found = own(group, k);
    });
    return found;
  }
  /**
   * `apiPlaygroundInputs` into the request description before the form is built: header, query
   * and cookie values only where they are the endpoint's security scheme (Mintlify: "only values
   * that match the current endpoint's security scheme"), path parameters and server variables by
   * name. What the reader typed in this tab (sessionStorage) still wins: authInputs reads it first.
   */
  function prefill(req, inputs) {
    if (!inputs || typeof inputs !== 'object') return;
    (req.security || []).forEach(function (alt) {
      alt.forEach(function (scheme) {
        var v;
        if (scheme.kind === 'apiKey' && scheme.param) {
          var where = scheme.in || 'header';
          v = inputOf(inputs[where], scheme.param, where === 'header');
        } else if (scheme.kind === 'bearer' || scheme.kind === 'oauth2') {
          v = inputOf(inputs.header, 'Authorization', true);
          if (v !== undefined) v = v.replace(/^Bearer\s+/i, '');
        }
        if (v !== undefined && v !== '') scheme.value = v;
      });
    });
    (req.params || []).forEach(function (p) {
      if (p.in !== 'path') return;
      var v = inputOf(inputs.path, p.name, false);
      if (v !== undefined) p.value = v;
    });
    (req.serverTemplates || []).forEach(function (tpl) {
      if (!tpl) return;
      tpl.variables.forEach(function (variable) {
        var v = inputOf(inputs.server, variable.name, false);
        if (v !== undefined && (!variable.enum || variable.enum.length === 0 || variable.enum.indexOf(v) >= 0)) variable.default = v;
      });
    });
  }

  function start() {
    var reader = window.mintlify;
    document.querySelectorAll('[data-playground]').forEach(function (root) {
      var req = describe(root);
      if (!req) return;
      if (reader && reader.apiPlaygroundInputs) prefill(req, reader.apiPlaygroundInputs);
      if (root.getAttribute('data-playground') === 'simple') buildSimple(root, req);
      else build(root, req);
    });
  }
  // A page of a site with reader access loads reader.js after this script: by DOMContentLoaded it
  // has said whether a reader is coming (window.mintlify.userPending), and the form waits for them.
  function whenReaderKnown() {
    var pending = window.mintlify && window.mintlify.userPending;
    if (pending && typeof pending.then === 'function') pending.then(start, start);
    else start();
  }
  if (document.readyState !== 'complete') document.addEventListener('DOMContentLoaded', whenReaderKnown);
  else whenReaderKnown();
})();
