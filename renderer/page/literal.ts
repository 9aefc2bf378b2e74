/**
 * A safe reader for JavaScript literals in MDX (attribute `{…}` values, `export const x = …`):
 * strings, numbers, booleans, null, undefined, arrays and objects (unquoted keys, trailing commas).
 * It never evaluates anything; anything else is reported as "not a literal" so the caller can fall
 * back to showing the source text.
 */

export type Literal = string | number | boolean | null | undefined | Literal[] | { [key: string]: Literal };

/** Thrown internally when the text is not a plain literal; callers get `NOT_LITERAL` instead. */
class NotLiteral extends Error {}

export const NOT_LITERAL: unique symbol = Symbol('not-literal');

const IDENT_START = /[A-Za-z_$]/;
const IDENT_PART = /[\w$]/;
const NUMBER_RE = /-?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)/y;

export function parseLiteral(text: string): Literal | typeof NOT_LITERAL {
  const reader = new Reader(text);
  try {
    reader.skipSpace();
    const value = reader.value();
    reader.skipSpace();
    if (reader.pos < text.length && text[reader.pos] === ';') reader.pos++;
    reader.skipSpace();
    if (reader.pos !== text.length) return NOT_LITERAL;
    return value;
  } catch (err) {
    if (err instanceof NotLiteral) return NOT_LITERAL;
    throw err;
  }
}

class Reader {
  pos = 0;
  constructor(private readonly src: string) {}

  skipSpace(): void {
    const s = this.src;
    for (;;) {
      const c = s.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.pos++;
      else if (c === 47 && s[this.pos + 1] === '/') {
        const end = s.indexOf('\n', this.pos);
        this.pos = end === -1 ? s.length : end;
      } else if (c === 47 && s[this.pos + 1] === '*') {
        const end = s.indexOf('*/', this.pos + 2);
        if (end === -1) throw new NotLiteral();
        this.pos = end + 2;
      } else return;
    }
  }

  value(): Literal {
    const s = this.src;
    const c = s[this.pos];
    if (c === undefined) throw new NotLiteral();
    if (c === '"' || c === "'") return this.string(c);
    if (c === '`') return this.template();
    if (c === '[') return this.array();
    if (c === '{') return this.object();
    if (c === '-' || c === '.' || (c >= '0' && c <= '9')) return this.number();
    const word = this.identifier();
    switch (word) {
      case 'true':
        return true;
      case 'false':
        return false;
      case 'null':
        return null;
      case 'undefined':
        return undefined;
      default:
        throw new NotLiteral();
    }
  }

  identifier(): string {
    const s = this.src;
    const start = this.pos;
    if (!IDENT_START.test(s[this.pos] ?? '')) throw new NotLiteral();
    this.pos++;
    while (IDENT_PART.test(s[this.pos] ?? '')) this.pos++;
    return s.slice(start, this.pos);
  }

  number(): number {
    NUMBER_RE.lastIndex = this.pos;
    const m = NUMBER_RE.exec(this.src);
    if (!m || m[0] === '-' || m[0] === '') throw new NotLiteral();
    this.pos += m[0].length;
    // Number('-0x10') is NaN: read the sign apart from the digits.
    const text = m[0].replace(/_/g, '');
    const n = text.startsWith('-') ? -Number(text.slice(1)) : Number(text);
    if (Number.isNaN(n)) throw new NotLiteral();
    return n;
  }

  string(quote: string): string {
    const s = this.src;
    let out = '';
    this.pos++;
    for (;;) {
      const c = s[this.pos];
      if (c === undefined || c === '\n') throw new NotLiteral();
      this.pos++;
      if (c === quote) return out;
      if (c === '\\') out += this.escape();
      else out += c;
    }
  }

  /** Template literals count only without `${…}` substitutions (those would need evaluation). */
  template(): string {
    const s = this.src;
    let out = '';
    this.pos++;
    for (;;) {
      const c = s[this.pos];
      if (c === undefined) throw new NotLiteral();
      this.pos++;
      if (c === '`') return out;
      if (c === '$' && s[this.pos] === '{') throw new NotLiteral();
      if (c === '\\') out += this.escape();
      else out += c;
    }
  }

  escape(): string {
    const s = this.src;
    const c = s[this.pos++];
    switch (c) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case '0':
        return '\0';
      case '\n':
        return '';
      case 'u': {
        if (s[this.pos] === '{') {
          const end = s.indexOf('}', this.pos);
          const cp = Number.parseInt(s.slice(this.pos + 1, end), 16);
          if (end === -1 || !Number.isFinite(cp) || cp > 0x10ffff) throw new NotLiteral();
          this.pos = end + 1;
          return String.fromCodePoint(cp);
        }
        const hex = s.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new NotLiteral();
        this.pos += 4;
        return String.fromCharCode(Number.parseInt(hex, 16));
      }
      case 'x': {
        const hex = s.slice(this.pos, this.pos + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new NotLiteral();
        this.pos += 2;
        return String.fromCharCode(Number.parseInt(hex, 16));
      }
      case undefined:
        throw new NotLiteral();
      default:
        return c;
    }
  }

  array(): Literal[] {
    const s = this.src;
    const out: Literal[] = [];
    this.pos++;
    for (;;) {
      this.skipSpace();
      if (s[this.pos] === ']') {
        this.pos++;
        return out;
      }
      out.push(this.value());
      this.skipSpace();
      if (s[this.pos] === ',') this.pos++;
      else if (s[this.pos] !== ']') throw new NotLiteral();
    }
  }

  object(): { [key: string]: Literal } {
    const s = this.src;
    // A null prototype: keys such as `__proto__` from user content stay plain data.
    const out = Object.create(null) as { [key: string]: Literal };
    this.pos++;
    for (;;) {
      this.skipSpace();
      if (s[this.pos] === '}') {
        this.pos++;
        return out;
      }
      const c = s[this.pos];
      let key: string;
      if (c === '"' || c === "'") key = this.string(c);
      else if (c !== undefined && c >= '0' && c <= '9') key = String(this.number());
      else key = this.identifier();
      this.skipSpace();
      if (s[this.pos] !== ':') throw new NotLiteral();
      this.pos++;
      this.skipSpace();
      out[key] = this.value();
      this.skipSpace();
      if (s[this.pos] === ',') this.pos++;
      else if (s[this.pos] !== '}') throw new NotLiteral();
    }
  }
}
