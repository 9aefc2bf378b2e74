/*
 * "Was this page helpful?" at the bottom of a page, as Mintlify shows it: thumbs up or down
 * (sent at once as a vote), then an optional reason and comment that complete the same vote
 * (same feedback id, so it counts once). And feedback on code blocks: a button on each code
 * block opens a comment box. Shown only when page-view.js learned that the appliance collects.
 * Element ids follow Mintlify's (#feedback-thumbs-up, #feedback-form...) so custom scripts and
 * styles written for Mintlify find them.
 */
(function () {
  'use strict';

  // The words in the page's language: words.js, put in front of this file (renderer/theme/assets.ts).
  var t = docsWord;
  var EVENTS_URL = '/_/events';
  var root = document.querySelector('[data-page-feedback]');
  if (!root) return;
  var codeEnabled = root.getAttribute('data-code-feedback') === 'true';
  var thumbsEnabled = root.getAttribute('data-thumbs') === 'true';

  function randomId() {
    var a = new Uint8Array(12);
    window.crypto.getRandomValues(a);
    var s = '';
    for (var i = 0; i < a.length; i++) s += ('0' + a[i].toString(16)).slice(-2);
    return s;
  }

  function post(event) {
    return window.fetch(EVENTS_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event), keepalive: true, credentials: 'omit' });
  }

  function pagePath() {
    return window.location.pathname;
  }

  var vote = null;
  var form = root.querySelector('#feedback-form');
  var reasons = root.querySelector('[data-feedback-reasons]');
  var thanks = root.querySelector('[data-feedback-thanks]');

  function showReasons(helpful) {
    var options = helpful ? root.getAttribute('data-reasons-up') : root.getAttribute('data-reasons-down');
    reasons.innerHTML = '';
    JSON.parse(options).forEach(function (text, i) {
      var label = document.createElement('label');
      label.className = 'page-feedback-reason';
      var input = document.createElement('input');
      input.type = 'radio';
      input.name = 'feedback-reason';
      input.value = text;
      input.id = 'feedback-reason-' + i;
      label.appendChild(input);
      label.appendChild(document.createTextNode(' ' + text));
      reasons.appendChild(label);
    });
  }

  function rate(helpful) {
    vote = { id: randomId(), helpful: helpful };
    root.querySelectorAll('[data-feedback-thumb]').forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute('data-feedback-thumb') === (helpful ? 'up' : 'down')));
    });
    post({ type: 'feedback', path: pagePath(), feedbackId: vote.id, source: 'thumbs_only', helpful: helpful });
    showReasons(helpful);
    form.hidden = false;
    thanks.hidden = true;
  }

  if (thumbsEnabled) {
    root.querySelector('#feedback-thumbs-up').addEventListener('click', function () { rate(true); });
    root.querySelector('#feedback-thumbs-down').addEventListener('click', function () { rate(false); });
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      if (!vote) return;
      var picked = form.querySelector('input[name="feedback-reason"]:checked');
      var comment = form.querySelector('#feedback-form-input').value.trim();
      var event = { type: 'feedback', path: pagePath(), feedbackId: vote.id, source: 'contextual', helpful: vote.helpful };
      if (picked) event.reason = picked.value;
      if (comment) event.comment = comment.slice(0, 1000);
      if (picked || comment) post(event);
      form.hidden = true;
      thanks.hidden = false;
    });
    root.querySelector('#feedback-form-cancel').addEventListener('click', function () {
      form.hidden = true;
      thanks.hidden = false;
    });
  }

  function addCodeButtons() {
    document.querySelectorAll('#page-content pre.c-code__pre').forEach(function (pre) {
      if (pre.parentNode.querySelector('.code-snippet-feedback-button')) return;
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'code-snippet-feedback-button';
      button.id = 'code-snippet-feedback-button';
      button.textContent = t('codeFeedback');
      button.setAttribute('aria-label', t('codeFeedbackLabel'));
      button.addEventListener('click', function () {
        var box = pre.parentNode.querySelector('.code-snippet-feedback-form');
        if (box) return void (box.hidden = !box.hidden);
        box = document.createElement('form');
        box.className = 'code-snippet-feedback-form';
        var area = document.createElement('textarea');
        area.id = 'code-snippet-feedback-textarea';
        area.maxLength = 1000;
        area.rows = 3;
        area.setAttribute('aria-label', t('codeFeedbackQuestion'));
        area.placeholder = t('codeFeedbackQuestion');
        var submit = document.createElement('button');
        submit.type = 'submit';
        submit.className = 'code-snippet-feedback-form-submit-button';
        submit.textContent = t('send');
        box.appendChild(area);
        box.appendChild(submit);
        box.addEventListener('submit', function (e) {
          e.preventDefault();
          var text = box.querySelector('textarea').value.trim();
          if (!text) return;
          var code = pre.querySelector('code');
          var lang = /language-([\w+-]+)/.exec(code ? code.className : '');
          var title = pre.closest('.c-code') && pre.closest('.c-code').querySelector('.c-code__title');
          post({
            type: 'feedback', path: pagePath(), feedbackId: randomId(), source: 'code_snippet', comment: text.slice(0, 1000),
            code: (code ? code.textContent : pre.textContent).slice(0, 4000), lang: lang ? lang[1].slice(0, 40) : undefined,
            filename: title ? title.textContent.trim().slice(0, 200) || undefined : undefined,
          });
          var thanks = document.createElement('p');
          thanks.className = 'code-snippet-feedback-thanks';
          thanks.textContent = t('feedbackThanks');
          box.textContent = '';
          box.appendChild(thanks);
        });
        pre.parentNode.insertBefore(box, pre.nextSibling);
      });
      pre.parentNode.insertBefore(button, pre);
    });
  }

  function show(collecting) {
    if (!collecting) return;
    if (thumbsEnabled) root.hidden = false;
    if (codeEnabled) addCodeButtons();
  }
  if (document.documentElement.getAttribute('data-reader-analytics') === 'on') show(true);
  document.addEventListener('docs:reader-analytics', function (e) { show(e.detail.collecting); });
})();
