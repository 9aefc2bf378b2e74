/**
 * Where JSON text stops being JSON, as a person finds it in an editor: line and column (both from 1).
 * V8 names a character offset for most errors ("... in JSON at position 90") but none for an
 * unexpected token ("Unexpected token '}', "..." is not valid JSON"); then the offset comes from
 * a scan of the text by the JSON grammar (RFC 8259).
 */
export interface JsonErrorPlace {
  line: number;
  column: number;
  /** The parser's reason without its offset or quoted snippet. */
  reason: string;
}

export function placeJsonError(text: string, err: Error): JsonErrorPlace {
  const m = /^(.*?) in JSON at position (\d+)/.exec(err.message);
  const offset = m ? Number(m[2]) : firstBadOffset(text);
  const reason = (m ? m[1]! : err.message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')).replace(/^Unexpected token '([\s\S])'$/, (_, ch: string) =>
    ch === '\n' || ch === '\r' ? 'Unexpected end of line' : ch < ' ' ? `Unexpected control character ${JSON.stringify(ch)}` : `Unexpected token '${ch}'`,
  );
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length, column: before[before.length - 1]!.length + 1, reason };
}

/** The offset of the first character that breaks the grammar (the text's length when it ends too early). */
export function firstBadOffset(text: string): number {
  let i = 0;
  class Stop {
    constructor(readonly at: number) {}
  }
  const fail = (): never => {
    throw new Stop(i);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i] === ch) i++;
    else fail();
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const ch = text[i]!;
      if (ch === '"') return void i++;
      if (ch < ' ') fail();
      if (ch === '\\') {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          i++;
          for (let k = 0; k < 4; k++) if (/[0-9a-fA-F]/.test(text[i] ?? '')) i++;
          else fail();
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
        else fail();
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (stop) {
    if (stop instanceof Stop) return stop.at;
    throw stop;
  }
}
