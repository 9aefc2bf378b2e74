/**
 * The ids the page layout gives its own elements (templates/*.ejs, and those the site's scripts
 * add: the assistant's panel, the code-snippet feedback button). A page's headings and
 * components never take them: `## Content` on a page was a second `id="content"` beside the
 * layout's `<main>`, its table-of-contents link went to the top of the page, and the HTML was
 * invalid (mintlify-docs had 12 such pages). Its heading is `content-2` instead; a test keeps
 * this list in step with the templates and scripts. (Numbered ids the scripts make, `search-result-3`,
 * are not reserved.)
 */
export const LAYOUT_IDS: readonly string[] = [
  'content',
  'page-content',
  'sidebar',
  'toc-title',
  'search-dialog',
  'search-input',
  'search-results',
  'search-scope',
  'search-status',
  'feedback-form',
  'feedback-form-cancel',
  'feedback-form-input',
  'feedback-form-submit',
  'feedback-thumbs-down',
  'feedback-thumbs-up',
  'feedback-toolbar',
  'assistant-from-search',
  'assistant-input',
  'assistant-launcher',
  'assistant-log',
  'assistant-panel',
  'assistant-title',
  'code-snippet-feedback-button',
  'code-snippet-feedback-textarea',
];
