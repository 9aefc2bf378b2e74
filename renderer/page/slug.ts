/**
 * Anchor ids as Mintlify makes them (its documented "Automatic anchor IDs"), not GitHub's:
 * lowercase; whitespace and periods become hyphens; a straight apostrophe becomes `’` and is
 * kept, as are slashes, `&`, `@`, `$`, `_`, emoji and every script's letters. So
 * `Config.json options` → `config-json-options`, `Fees & billing` → `fees-&-billing`,
 * `What's new` → `what’s-new`, `Read/write access` → `read/write-access`.
 * Where Mintlify's page is silent, the links written in real Mintlify repositories decide: other
 * punctuation (`( ) : , ! ?` …) separates words like a space (`enableMic(enable: boolean)` →
 * `enablemic-enable-boolean`, `Example: Connect` → `example-connect`), and runs of hyphens
 * become one, none at either end (`3. VAD & Turn` → `3-vad-&-turn`).
 * The ids can hold `&`: they are escaped where they are written into HTML.
 */
const SEPARATORS_RE = /[^\p{L}\p{M}\p{N}\p{S}_\-/&@’]|[`^+<=>|~]/gu;
const HYPHENS_RE = /-{2,}/g;
const EDGE_HYPHENS_RE = /^-+|-+$/g;

export function slugify(text: string): string {
  return text.trim().toLowerCase().replace(/'/g, '\u2019').replace(SEPARATORS_RE, '-').replace(HYPHENS_RE, '-').replace(EDGE_HYPHENS_RE, '');
}

/**
 * Field names repeat across the pages of a worker (an API's `id`, `name`, `created_at` on every
 * operation): their kebab forms are kept, up to a bound, instead of running four Unicode regexes
 * per field of every page.
 */
const kebabMemo = new Map<string, string>();
const KEBAB_MEMO_LIMIT = 20_000;

/**
 * A field name as Mintlify's ParamField/ResponseField anchors spell it (kebab case): words split
 * at anything that is not a letter or digit and at camelCase humps, lowercased, joined by `-`.
 * `thumbnails.background` → `thumbnails-background`, `onError` → `on-error`,
 * `--max-session-duration` and `max_session_duration` → `max-session-duration`.
 */
export function kebabName(name: string): string {
  let kebab = kebabMemo.get(name);
  if (kebab === undefined) {
    if (kebabMemo.size >= KEBAB_MEMO_LIMIT) kebabMemo.clear();
    kebabMemo.set(name, (kebab = kebabOf(name)));
  }
  return kebab;
}

function kebabOf(name: string): string {
  return name
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
    .join('-');
}

/**
 * Hands out unique ids in document order, as Mintlify counts repeats: `intro`, `intro-2`,
 * `intro-3`, across the whole page (headings, step titles and field anchors share one counter).
 */
export class Slugger {
  private readonly seen = new Map<string, number>();

  unique(base: string): string {
    let id = base === '' ? 'section' : base;
    let n = this.seen.get(id);
    if (n !== undefined) {
      let candidate: string;
      do {
        n++;
        candidate = `${id}-${n}`;
      } while (this.seen.has(candidate));
      this.seen.set(id, n);
      id = candidate;
    }
    this.seen.set(id, 1);
    return id;
  }

  reserve(id: string): void {
    if (!this.seen.has(id)) this.seen.set(id, 1);
  }
}
