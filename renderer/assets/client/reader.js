/*
 * The signed-in reader, for pages that are personalised (issue 40, create/personalization.mdx):
 * asks the site once for `GET /_/reader/user` (same origin, with the session cookie, never cached)
 * and publishes the reader's `content` as `window.mintlify.user` with a `mintlify:user` event,
 * as Mintlify's custom scripts read it. Signed out, on a site without reader access (404 there),
 * on a static host or on any error the user is `{}`. The component runtime waits for it before it
 * renders the islands that read `user`; the playground waits for it to prefill its fields from
 * `apiPlaygroundInputs`. Loaded only by pages that use `user` (and API pages of sites with reader
 * access); plain script, no outside request.
 */
(function (g) {
  'use strict';
  var URL_USER = '/_/reader/user';
  var m = (g.mintlify = g.mintlify || {});
  if (m.userPending) return;
  m.user = {};
  m.apiPlaygroundInputs = {};
  function isObj(v) {
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  }
  function ask() {
    return fetch(URL_USER, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } }).then(function (res) {
      var type = res.headers.get('content-type') || '';
      return res.ok && type.indexOf('application/json') === 0 ? res.json() : {};
    });
  }
  // Not on the appliance (site.js's status): nothing to ask.
  var status = g.docsApplianceStatus || Promise.resolve({});
  m.userPending = status
    .then(function (s) {
      return s && s.appliance === false ? {} : ask();
    })
    .catch(function () {
      return {};
    })
    .then(function (data) {
      data = isObj(data) ? data : {};
      m.signedIn = data.signedIn === true;
      m.user = isObj(data.content) ? data.content : {};
      m.apiPlaygroundInputs = isObj(data.apiPlaygroundInputs) ? data.apiPlaygroundInputs : {};
      try {
        g.dispatchEvent(new CustomEvent('mintlify:user', { detail: m.user }));
      } catch (e) {
        // No CustomEvent (very old browser): window.mintlify.user is still there.
      }
      return m.user;
    });
})(window);
