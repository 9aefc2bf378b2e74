import jsYaml from 'js-yaml';

/**
 * JSON data written as block YAML exactly as `jsYaml.dump(value, { noRefs: true, skipInvalid:
 * true, lineWidth })` writes it, for the API pages' Markdown (api-markdown.ts). js-yaml spent most
 * of its time there walking the structure and testing every scalar against every implicit type
 * ("is `op3` a timestamp?"): about 0.12 ms an operation, a quarter of an API page's retrieval step.
 *
 * Here the structure is laid out directly (mappings and sequences nest as js-yaml nests them: a
 * sequence under a key is indented, an item's first key sits after its `- `), and so are plain
 * strings and long one-line strings (folded as js-yaml folds them). Other scalars go to js-yaml:
 * keys once per document (a key is always one line, so its form does not depend on where it is),
 * other strings one at a time, at the indentation they will sit at (js-yaml's fold width shrinks
 * with depth), each kept in the memo for the next time. What this does not handle, it does not
 * guess: `undefined` comes back and the caller dumps with js-yaml. A test holds the output to
 * js-yaml's on random documents and on the fixture specs.
 */

/** Words js-yaml quotes because a YAML 1.1 or 1.2 reader would take them for null or a boolean. */
const AMBIGUOUS = new Set([
  'null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE',
  'y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF',
]);

/**
 * Strings js-yaml writes as they are: a letter first (no number, date, `.inf` or indicator can
 * start so), then only characters no YAML reader gives a meaning inside a plain scalar, no space at
 * the end. A value must also fit the fold width where it sits (past it js-yaml writes a folded
 * block even when there is no space to fold at); a key is never folded, but past 1,024 characters
 * it is written as an explicit `? key`.
 */
const PLAIN = /^[A-Za-z](?:[\w./ -]*[\w./-])?$/;
const MAX_IMPLICIT_KEY = 1024;

/**
 * One line of what js-yaml counts printable (its `isPrintable`: no tab, no line or paragraph
 * separator, no byte-order mark, no lone surrogate), not starting with a space: past the fold width
 * js-yaml writes such a string folded, and never needs an indentation indicator for it.
 */
const FOLDABLE = /^(?! )[\x20-\x7e\xa1-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]+$/u;
/** js-yaml quotes what YAML 1.1 would read as a base-60 number, before choosing a style. */
const BASE60 = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;

/** js-yaml's fold width for a scalar at `level`: narrower with depth, down to 40 (or lineWidth, if less). */
const foldWidth = (lineWidth: number, level: number): number => Math.max(Math.min(lineWidth, 40), lineWidth - 2 * Math.max(1, level));

/** A block scalar js-yaml would give an indentation indicator: its digit is the indent option. */
const NEEDS_INDICATOR = /^\n* /;

class Unsupported extends Error {}

export interface YamlMemo {
  /** Keys as js-yaml writes them. */
  keys: Map<string, string>;
  /**
   * Strings js-yaml wrote, by indentation and line width (stringText's `at`): a document's
   * operations repeat their `$ref`s, media types and shared descriptions, each a js-yaml dump.
   */
  strings: Map<number, Map<string, string>>;
}

export function newYamlMemo(): YamlMemo {
  return { keys: new Map(), strings: new Map() };
}

const DUMP = { noRefs: true, skipInvalid: true } as const;

function keyText(key: string, memo: YamlMemo): string {
  let text = memo.keys.get(key);
  if (text === undefined) {
    if (key.length <= MAX_IMPLICIT_KEY && PLAIN.test(key) && !AMBIGUOUS.has(key)) text = key;
    else {
      const line = jsYaml.dump({ [key]: null }, DUMP);
      // Past 1,024 characters js-yaml writes an explicit `? key` pair.
      if (!line.endsWith(': null\n') || line.startsWith('? ')) throw new Unsupported();
      text = line.slice(0, -': null\n'.length);
    }
    memo.keys.set(key, text);
  }
  return text;
}

/**
 * js-yaml's folding of one line (its `foldLine`): broken at a space before a non-space, so that
 * each piece is at most `width` where a break allows; a piece longer than that is left whole.
 */
function foldLine(line: string, width: number): string[] {
  const pieces: string[] = [];
  const breaks = / [^ ]/g;
  let start = 0;
  let last = 0;
  for (let m = breaks.exec(line); m; m = breaks.exec(line)) {
    if (m.index - start > width) {
      const end = last > start ? last : m.index;
      pieces.push(line.slice(start, end));
      start = end + 1;
    }
    last = m.index;
  }
  if (line.length - start > width && last > start) pieces.push(line.slice(start, last), line.slice(last + 1));
  else pieces.push(line.slice(start));
  return pieces;
}

function stringText(s: string, level: number, lineWidth: number, memo: YamlMemo): string {
  const width = foldWidth(lineWidth, level);
  // js-yaml indents a scalar at `level` by 2 × level (at least one step) and folds it at lineWidth − that.
  const steps = Math.max(1, level);
  const indent = 2 * steps;
  if (s.length <= width) {
    if (PLAIN.test(s) && !AMBIGUOUS.has(s)) return s;
  } else if (FOLDABLE.test(s) && !BASE60.test(s)) {
    // Past the width, one line of printable characters not starting with a space is written
    // folded by js-yaml whatever it holds (`: `, `#`, quotes): `>-`, then its pieces on lines of
    // their own. Written here, without a dump.
    return `>-${foldLine(s, width).map((piece) => `${newline(steps)}${piece}`).join('')}`;
  }
  if (s === '') return "''";
  const at = indent * 100_000 + lineWidth;
  let byString = memo.strings.get(at);
  if (!byString) memo.strings.set(at, (byString = new Map()));
  let text = byString.get(s);
  if (text === undefined) {
    // Written on its own with that indent, it comes out as inside the document, except for an
    // indentation indicator.
    if (NEEDS_INDICATOR.test(s)) throw new Unsupported();
    text = jsYaml.dump(s, { ...DUMP, indent, lineWidth }).slice(0, -1);
    byString.set(s, text);
  }
  return text;
}

function numberText(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return String(n);
  return jsYaml.dump(n, DUMP).slice(0, -1);
}

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

function valueText(v: unknown, level: number, compact: boolean, lineWidth: number, memo: YamlMemo): string {
  if (typeof v === 'string') return stringText(v, level, lineWidth, memo);
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? '[]' : sequenceText(v, level, compact, lineWidth, memo);
  if (typeof v === 'object' && isPlainObject(v)) return Object.keys(v).length === 0 ? '{}' : mappingText(v, level, compact, lineWidth, memo);
  throw new Unsupported();
}

const NEWLINES: string[] = [];
const newline = (level: number): string => (NEWLINES[level] ??= `\n${' '.repeat(2 * level)}`);

function mappingText(obj: Record<string, unknown>, level: number, compact: boolean, lineWidth: number, memo: YamlMemo): string {
  let out = '';
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (value === undefined) continue;
    const head = (!compact || out !== '' ? newline(level) : '') + keyText(key, memo);
    const text = valueText(value, level + 1, false, lineWidth, memo);
    out += head + (text.charCodeAt(0) === 10 ? ':' : ': ') + text;
  }
  return out === '' ? '{}' : out;
}

function sequenceText(items: unknown[], level: number, compact: boolean, lineWidth: number, memo: YamlMemo): string {
  let out = '';
  for (const item of items) {
    const text = valueText(item === undefined ? null : item, level + 1, true, lineWidth, memo);
    if (!compact || out !== '') out += newline(level);
    out += (text.charCodeAt(0) === 10 ? '-' : '- ') + text;
  }
  return out;
}

/**
 * `value` (a mapping of JSON data) as js-yaml's block YAML, or undefined when it holds something
 * this writer leaves to js-yaml (the caller then dumps it there).
 */
export function yamlBlock(value: Record<string, unknown>, lineWidth = 80, memo: YamlMemo = newYamlMemo()): string | undefined {
  try {
    return `${valueText(value, 0, true, lineWidth, memo)}\n`;
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

/**
 * A non-empty mapping as js-yaml writes it `level` mappings deep in a larger document (each line
 * indented 2 × level, folded at that depth's width), so that a part of a document written once can
 * be put into many: the same text js-yaml gives for the part inside the whole. Undefined as for
 * yamlBlock, and for a mapping with nothing to write.
 */
export function nestedYamlBlock(value: Record<string, unknown>, level: number, lineWidth = 80, memo: YamlMemo = newYamlMemo()): string | undefined {
  try {
    const text = valueText(value, level, false, lineWidth, memo);
    return text.charCodeAt(0) === 10 ? `${text.slice(1)}\n` : undefined;
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

/** `value` as js-yaml's block YAML: written here, or by js-yaml when yamlBlock leaves it. */
export function yamlOf(value: Record<string, unknown>, memo: YamlMemo): string {
  return yamlBlock(value, 80, memo) ?? jsYaml.dump(value, DUMP);
}

/**
 * nestedYamlBlock, or, for what it leaves, js-yaml's YAML of `value` alone at the width that is
 * left at that depth, indented to it (so it folds as inside the whole document).
 */
export function nestedYamlOf(value: Record<string, unknown>, level: number, memo: YamlMemo): string {
  const indent = ' '.repeat(2 * level);
  return nestedYamlBlock(value, level, 80, memo) ?? jsYaml.dump(value, { ...DUMP, lineWidth: 80 - indent.length }).replace(/^(?=.)/gm, indent);
}
