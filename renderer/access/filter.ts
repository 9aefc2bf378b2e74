import { canSee, MARK_CLOSE, parseMarked, type ReaderView } from './contract.js';

const OPEN = '<!--da:';

/**
 * A marked text as `view` may see it: fragments it may not see are removed with everything
 * inside them, the markers of the others are removed. Unbalanced or unknown markers fail closed:
 * an unknown requirement hides its fragment; an unclosed fragment hides the rest of the text.
 */
export function filterMarked(text: string, view: ReaderView): string {
  if (!text.includes(OPEN)) return text;
  let out = '';
  let pos = 0;
  // Depth of fragments being dropped (0: emitting). Visible fragments only remove their markers.
  let hidden = 0;
  const stack: boolean[] = [];
  while (pos < text.length) {
    const open = text.indexOf(OPEN, pos);
    const close = text.indexOf(MARK_CLOSE, pos);
    if (open === -1 && close === -1) break;
    const isOpen = open !== -1 && (close === -1 || open < close);
    const at = isOpen ? open : close;
    if (hidden === 0) out += text.slice(pos, at);
    if (isOpen) {
      const end = text.indexOf('-->', open + OPEN.length);
      if (end === -1) return out; // malformed: hide the rest
      const req = parseMarked(text.slice(open + OPEN.length, end));
      const visible = req !== undefined && canSee(req, view);
      stack.push(visible);
      if (!visible) hidden++;
      pos = end + 3;
    } else {
      const wasVisible = stack.pop();
      if (wasVisible === false) hidden--;
      pos = close + MARK_CLOSE.length;
    }
  }
  if (hidden === 0) out += text.slice(pos);
  return out;
}
