import { RenderError } from '../types.js';
import { jsonErrorOffset } from './json-error-position.js';

/** 1-based line and column of a character offset, for error messages. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * JSON.parse that names the file, line and column on a syntax error (Node's own message carries a
 * position only sometimes, so the position is found by json-error-position.ts).
 */
export function parseJsonFile(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const where = lineColumnAt(body, jsonErrorOffset(body));
    const reason = message
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/ in JSON at position \d+.*$/, '')
      // Node quotes the text around the error; a message must not carry a file's content along.
      .replace(/,? "[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '');
    throw new RenderError(`invalid JSON: ${reason}`, { file, line: where.line, column: where.column, cause: err });
  }
}
