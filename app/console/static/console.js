// The console's only script: live progress of export jobs by short polling of the page's JSON.
// Without it every page still works; progress then updates on reload.
(function () {
  'use strict';
  var box = document.querySelector('[data-poll]');
  if (!box) return;
  var url = box.getAttribute('data-poll');
  function active() {
    return Array.prototype.some.call(box.querySelectorAll('progress[data-job]'), function (p) {
      return Number(p.value) < 100 && !p.hasAttribute('data-done');
    });
  }
  function tick() {
    fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (!body) return;
        var finished = false;
        body.jobs.forEach(function (j) {
          var bar = box.querySelector('progress[data-job="' + j.jobId + '"]');
          if (!bar) return;
          bar.value = j.progress;
          bar.textContent = j.progress + ' %';
          var pct = box.querySelector('[data-job-pct="' + j.jobId + '"]');
          if (pct) pct.textContent = j.progress + ' %';
          // The server says whether a job has finished: this script knows no status names.
          if (j.done) {
            if (!bar.hasAttribute('data-done')) finished = true;
            bar.setAttribute('data-done', '');
          }
        });
        // A job that just finished gets its bundle button: show the page as the server renders it.
        if (finished) setTimeout(function () { location.reload(); }, 1500);
        else if (active()) setTimeout(tick, 1000);
      })
      .catch(function () { setTimeout(tick, 5000); });
  }
  // Jobs already finished when the page was rendered carry data-done and need no polling.
  if (active()) setTimeout(tick, 1000);
})();
