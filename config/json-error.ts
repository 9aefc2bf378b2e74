import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * Where JSON text stops being JSON, as a person finds it in an editor: line and column (both from 1).
 * V8 names a character offset for most errors ("... in JSON at position 90") but none for an
 * unexpected token ("Unexpected token '}', "..." is not valid JSON"); then the offset comes from
 * jsonc-parser (VS Code's JSON scanner, held to strict JSON here: no comments, no trailing comma).
 */
export interface JsonErrorPlace {
  line: number;
  column: number;
  /** The parser's reason without its offset or quoted snippet. */
  reason: string;
}

export function placeJsonError(text: string, err: Error): JsonErrorPlace {
  const m = /^(.*?) in JSON at position (\d+)/.exec(err.message);
  if (!m) {
    // V8 gave no offset: the place and the words both come from the scanner, so they agree.
    const bad = firstBadPlace(text);
    return { ...lineAndColumn(text, bad.offset), reason: bad.reason };
  }
  const reason = m[1]!.replace(/^Unexpected token '([\s\S])'$/, (_, ch: string) =>
    ch === '\n' || ch === '\r' ? 'Unexpected end of line' : ch < ' ' ? `Unexpected control character ${JSON.stringify(ch)}` : `Unexpected token '${ch}'`,
  );
  return { ...lineAndColumn(text, Number(m[2])), reason };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** The scanner's codes in a person's words. */
const REASONS: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidSymbol: 'Not a JSON value (a string in double quotes, a number, true, false, null, an object or an array)',
  InvalidNumberFormat: 'Not a JSON number',
  PropertyNameExpected: 'Expected a property name in double quotes',
  ValueExpected: 'Expected a value',
  ColonExpected: "Expected ':' after the property name",
  CommaExpected: "Expected ','",
  CloseBraceExpected: "Expected '}'",
  CloseBracketExpected: "Expected ']'",
  EndOfFileExpected: 'Expected the end of the file after the value',
  InvalidCommentToken: 'Comments are not allowed in JSON',
  UnexpectedEndOfComment: 'Comments are not allowed in JSON',
  UnexpectedEndOfString: 'A string is not closed',
  UnexpectedEndOfNumber: 'Not a JSON number',
  InvalidUnicode: 'Not a valid \\u escape',
  InvalidEscapeCharacter: 'Not a valid escape in a string',
  InvalidCharacter: 'A control character inside a string',
};

/** Where strict JSON first breaks and why (the text's end when it ends too early). */
export function firstBadPlace(text: string): { offset: number; reason: string } {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return { offset: text.length, reason: 'Unexpected end of JSON input' };
  const code = printParseErrorCode(first.error);
  return { offset: first.offset, reason: REASONS[code] ?? code };
}
