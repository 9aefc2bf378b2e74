/*
 * The words of the page's language (renderer/i18n, written on <html data-strings> as JSON), for
 * every client script that shows words: renderer/theme/assets.ts puts this file in front of each
 * of them, so each stays one file and none depends on another's load order. `{name}` in a word is
 * filled from `fill`; a missing word shows its key.
 */
function docsWord(key, fill) {
  var words = docsWord.words;
  if (!words) {
    try {
      words = JSON.parse(document.documentElement.getAttribute('data-strings') || '{}');
    } catch (e) {
      words = {};
    }
    docsWord.words = words;
  }
  var s = words[key] || key;
  for (var k in fill || {}) s = s.split('{' + k + '}').join(String(fill[k]));
  return s;
}
