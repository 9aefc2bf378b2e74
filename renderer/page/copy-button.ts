import type { ContentStrings } from '../i18n/content-strings.js';
import { escapeHtml } from './html.js';

/**
 * A code block's or prompt's copy button, run by components.js, in the page's language: its
 * accessible name (`Copy code`, `Copy prompt`), and its visible word and "Copied", which
 * components.css writes as `content`. The stylesheet holds the English words; a page in another
 * language carries its own on the button (`data-copy-label`, `data-copied-label`), so English
 * pages are as they were.
 */
export function copyButton(words: ContentStrings, label: string): string {
  const own = (words.copy === 'Copy' ? '' : ` data-copy-label="${escapeHtml(words.copy)}"`) + (words.copied === 'Copied' ? '' : ` data-copied-label="${escapeHtml(words.copied)}"`);
  return `<button type="button" class="c-code__copy" data-copy-code aria-label="${escapeHtml(label)}"${own}><span class="c-code__copy-status" aria-live="polite"></span></button>`;
}
