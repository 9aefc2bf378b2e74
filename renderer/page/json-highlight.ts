/**
 * highlight.js's markup for JSON, made directly for JSON in canonical form (what
 * `JSON.stringify(v, null, 2)` writes: API examples generated from schemas, and most examples
 * authors paste). highlight.js's JSON grammar costs about 1 ms per response example; this is a
 * single pass. Anything else (comments, other indentation, exponents) goes to highlight.js.
 */
const TOKEN_RE = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null|[{}[\],:]|\s+|[^]/gy;
const SIMPLE_NUMBER_RE = /^-?\d+(?:\.\d+)?$/;

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

/** The highlighted HTML, or undefined when the text is not canonical JSON (the caller uses highlight.js). */
export function highlightCanonicalJson(code: string): string | undefined {
  if (code.length === 0 || (code[0] !== '{' && code[0] !== '[')) return undefined;
  try {
    if (JSON.stringify(JSON.parse(code), null, 2) !== code) return undefined;
  } catch {
    return undefined;
  }
  const tokens: string[] = [];
  TOKEN_RE.lastIndex = 0;
  for (let m = TOKEN_RE.exec(code); m; m = TOKEN_RE.exec(code)) tokens.push(m[0]);
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const c = t[0];
    if (c === '"') {
      let j = i + 1;
      while (j < tokens.length && /^\s+$/.test(tokens[j] as string)) j++;
      out += `<span class="${tokens[j] === ':' ? 'hljs-attr' : 'hljs-string'}">${escape(t)}</span>`;
    } else if (t === '{' || t === '}' || t === '[' || t === ']' || t === ',' || t === ':') {
      out += `<span class="hljs-punctuation">${t}</span>`;
    } else if (t === 'true' || t === 'false' || t === 'null') {
      out += `<span class="hljs-literal"><span class="hljs-keyword">${t}</span></span>`;
    } else if (SIMPLE_NUMBER_RE.test(t)) {
      out += `<span class="hljs-number">${t}</span>`;
    } else if (/^\s+$/.test(t)) {
      out += t;
    } else {
      return undefined;
    }
  }
  return out;
}
