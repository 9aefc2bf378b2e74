/*
 * Reader analytics: one page view per navigation, posted to /_/events (docs/analytics.md,
 * "Reader analytics"). No cookie, no storage: the appliance derives a daily visitor hash itself.
 * Client-side navigations (history.pushState, back/forward) count as views too; a random view
 * id lets the appliance count a re-sent beacon once. The answer says whether the appliance
 * collects at all; the feedback control (feedback.js) shows only when it does.
 */
(function () {
  'use strict';
  var EVENTS_URL = '/_/events';
  var last = null;

  function randomId() {
    var a = new Uint8Array(12);
    window.crypto.getRandomValues(a);
    var s = '';
    for (var i = 0; i < a.length; i++) s += ('0' + a[i].toString(16)).slice(-2);
    return s;
  }

  function announce(collecting) {
    document.documentElement.setAttribute('data-reader-analytics', collecting ? 'on' : 'off');
    document.dispatchEvent(new CustomEvent('docs:reader-analytics', { detail: { collecting: collecting } }));
  }

  // False once the host showed it is not the appliance (its status says so, or a beacon was
  // refused): nothing more is sent from this page, so a static host sees no stream of failed POSTs.
  var sending = true;

  function send(path) {
    if (!sending) return;
    var body = JSON.stringify({ type: 'pageview', path: path, viewId: randomId() });
    window
      .fetch(EVENTS_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body, keepalive: true, credentials: 'omit' })
      .then(function (res) {
        if (!res.ok) sending = false;
        return res.ok ? res.json() : null;
      })
      .then(function (answer) { announce(!!answer && answer.collecting !== false); })
      .catch(function () { announce(false); });
  }

  function navigated() {
    var path = window.location.pathname;
    if (path === last) return;
    last = path;
    send(path);
  }

  var push = window.history.pushState;
  window.history.pushState = function () {
    var r = push.apply(this, arguments);
    if (last !== null) navigated();
    return r;
  };
  window.addEventListener('popstate', navigated);
  var status = window.docsApplianceStatus || Promise.resolve({});
  status.then(function (s) {
    if (s && s.appliance === false) {
      sending = false;
      announce(false);
    }
    navigated();
  });
})();
