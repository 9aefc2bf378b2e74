/*
 * "Ask AI" for readers (issue 21): a panel on every page and a button in the search dialog, talking
 * to the appliance's same-origin /_/assistant endpoints (no key: keys never sit in a page). Shown
 * only when GET /_/assistant says the assistant is enabled, so on a static host (where that
 * request fails) and with the assistant off nothing appears. Answers are read as an AI SDK v5 UI
 * message stream and rendered with DOM text nodes only: model output never becomes HTML.
 */
(function () {
  'use strict';
  var STATUS_URL = '/_/assistant';
  // The words in the page's language: words.js, put in front of this file (renderer/theme/assets.ts).
  var t = docsWord;
  var ASK_AI = t('askAi');
  var MESSAGE_URL = '/_/assistant/message';
  var messages = [];
  var threadId = null;
  var busy = false;
  var panel, log, input, sendButton, statusLine;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }

  /** Only links into this site (`/…`, `#…`) become links; anything else stays text. */
  function safeHref(url) {
    return /^\/(?!\/)|^#/.test(url) ? url : null;
  }

  /** A small Markdown subset (links, `code`, **bold**, paragraphs, list items) built as DOM nodes. */
  function renderMarkdown(target, text) {
    target.textContent = '';
    text.split(/\n{2,}/).forEach(function (block) {
      var lines = block.split('\n');
      var isList = lines.every(function (l) { return /^\s*([-*]|\d+\.)\s+/.test(l) || !l.trim(); });
      var container = isList ? el('ul') : el('p');
      lines.forEach(function (line, i) {
        var host = isList ? el('li') : container;
        if (!isList && i > 0) host.appendChild(el('br'));
        inline(host, isList ? line.replace(/^\s*([-*]|\d+\.)\s+/, '') : line);
        if (isList && line.trim()) container.appendChild(host);
      });
      target.appendChild(container);
    });
  }

  function inline(host, line) {
    var re = /\[([^\]]+)\]\(([^)\s]+)\)|`([^`]+)`|\*\*([^*]+)\*\*/g;
    var last = 0;
    var m;
    while ((m = re.exec(line))) {
      if (m.index > last) host.appendChild(document.createTextNode(line.slice(last, m.index)));
      if (m[1] !== undefined) {
        var href = safeHref(m[2]);
        host.appendChild(href ? el('a', { href: href, class: 'assistant-cite', text: m[1] }) : document.createTextNode(m[1]));
      } else if (m[3] !== undefined) host.appendChild(el('code', { text: m[3] }));
      else host.appendChild(el('strong', { text: m[4] }));
      last = re.lastIndex;
    }
    if (last < line.length) host.appendChild(document.createTextNode(line.slice(last)));
  }

  function build() {
    var close = el('button', { type: 'button', class: 'assistant-close', 'aria-label': t('closeAssistant'), text: '\u00d7' });
    log = el('div', { class: 'assistant-log', id: 'assistant-log', 'aria-live': 'polite', 'aria-relevant': 'additions text' });
    input = el('textarea', { class: 'assistant-input', id: 'assistant-input', rows: '2', maxlength: '2000', placeholder: t('askPlaceholder'), 'aria-label': t('askLabel') });
    sendButton = el('button', { type: 'submit', class: 'assistant-send', text: t('askSend') });
    statusLine = el('p', { class: 'assistant-status', role: 'status' });
    var form = el('form', { class: 'assistant-form' }, [input, sendButton]);
    panel = el('dialog', { class: 'assistant-panel', id: 'assistant-panel', 'aria-labelledby': 'assistant-title' }, [
      el('div', { class: 'assistant-head' }, [el('h2', { id: 'assistant-title', class: 'assistant-title', text: ASK_AI }), close]),
      el('p', { class: 'assistant-note', text: t('assistantNote') }),
      log,
      statusLine,
      form,
    ]);
    close.addEventListener('click', function () { panel.close(); });
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      ask(input.value);
    });
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && !e.shiftKey) {
        e.preventDefault();
        ask(input.value);
      }
    });
    document.body.appendChild(panel);
    var launcher = el('button', { type: 'button', class: 'assistant-launcher', id: 'assistant-launcher', 'aria-haspopup': 'dialog', 'aria-controls': 'assistant-panel', text: ASK_AI });
    launcher.addEventListener('click', openPanel);
    document.body.appendChild(launcher);
    addToSearchDialog();
    window.docsAssistant = { open: openPanel };
  }

  function openPanel() {
    if (!panel.open) panel.showModal ? panel.showModal() : panel.setAttribute('open', '');
    input.focus();
  }

  /** An "Ask AI" row under the search field: asks the typed query, leaving search as it is. */
  function addToSearchDialog() {
    var dialog = document.getElementById('search-dialog');
    var field = dialog && dialog.querySelector('.search-field');
    var searchInput = document.getElementById('search-input');
    if (!field || !searchInput) return;
    var button = el('button', { type: 'button', class: 'assistant-from-search', id: 'assistant-from-search', text: ASK_AI });
    button.addEventListener('click', function () {
      var q = searchInput.value.trim();
      if (dialog.close) dialog.close();
      openPanel();
      if (q) ask(q);
    });
    field.insertAdjacentElement('afterend', button);
  }

  function bubble(role) {
    var body = el('div', { class: 'assistant-text' });
    var item = el('div', { class: 'assistant-msg assistant-' + role }, [body]);
    log.appendChild(item);
    return { item: item, body: body };
  }

  function setBusy(on) {
    busy = on;
    sendButton.disabled = on;
    panel.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  function ask(text) {
    text = (text || '').trim();
    if (!text || busy) return;
    input.value = '';
    statusLine.textContent = '';
    bubble('user').body.textContent = text;
    messages.push({ role: 'user', parts: [{ type: 'text', text: text }] });
    var answer = bubble('assistant');
    answer.body.textContent = '\u2026';
    setBusy(true);
    var acc = '';
    fetch(MESSAGE_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: messages.slice(-16), threadId: threadId, currentPath: location.pathname }),
    })
      .then(function (res) {
        if (!res.ok || !res.body) {
          return res.json().catch(function () { return {}; }).then(function (b) {
            var wait = res.headers.get('retry-after');
            throw new Error((b && b.error) || t('assistantUnavailable') + (wait ? '; ' + t('retryIn', { seconds: wait }) : ''));
          });
        }
        var reader = res.body.getReader();
        var decoder = new TextDecoder();
        var buffer = '';
        var sources = [];
        function handle(chunk) {
          if (chunk.type === 'start' && chunk.messageMetadata && chunk.messageMetadata.threadId) threadId = chunk.messageMetadata.threadId;
          else if (chunk.type === 'text-delta') {
            acc += chunk.delta;
            renderMarkdown(answer.body, acc);
          } else if (chunk.type === 'source-url') sources.push(chunk);
          else if (chunk.type === 'error') statusLine.textContent = chunk.errorText;
        }
        function pump() {
          return reader.read().then(function (r) {
            if (r.done) return;
            buffer += decoder.decode(r.value, { stream: true });
            var i;
            while ((i = buffer.indexOf('\n\n')) >= 0) {
              var event = buffer.slice(0, i);
              buffer = buffer.slice(i + 2);
              var data = event.replace(/^data: ?/, '').trim();
              if (data && data !== '[DONE]') {
                try { handle(JSON.parse(data)); } catch (e) { /* a torn event is skipped */ }
              }
            }
            return pump();
          });
        }
        return pump().then(function () {
          if (!acc) answer.body.textContent = '';
          if (sources.length) {
            var list = el('ul', { class: 'assistant-sources', 'aria-label': t('sources') });
            sources.forEach(function (s) {
              var href = safeHref(s.url);
              list.appendChild(el('li', {}, [href ? el('a', { href: href, text: s.title || s.url }) : s.title || s.url]));
            });
            answer.item.appendChild(list);
          }
          messages.push({ role: 'assistant', parts: [{ type: 'text', text: acc }] });
        });
      })
      .catch(function (err) {
        answer.body.textContent = '';
        statusLine.textContent = err.message;
        messages.pop();
      })
      .then(function () {
        setBusy(false);
        input.focus();
      });
  }

  function start() {
    if (!window.fetch || !window.ReadableStream) return;
    // Asked once by site.js and shared with the page menu (contextual.js); asked here only if
    // site.js did not run. Elsewhere than on the appliance it says `enabled: false`.
    if (!window.docsApplianceStatus) {
      window.docsApplianceStatus = fetch(STATUS_URL, { headers: { accept: 'application/json' } })
        .then(function (res) { return res.ok ? res.json() : { enabled: false }; })
        .catch(function () { return {}; /* a static host: no assistant */ });
    }
    window.docsApplianceStatus.then(function (s) { if (s && s.enabled === true) build(); });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
