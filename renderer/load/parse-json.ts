import { RenderError } from '../types.js';

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
 * JSON.parse that names the file and line on a syntax error. Node reports only a character
 * position (and not even that for "unexpected end"), so the position is turned into line:column.
 */
export function parseJsonFile(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const lineMatch = /\(line (\d+) column (\d+)\)/.exec(message);
    const posMatch = /at position (\d+)/.exec(message);
    let where: { line: number; column: number };
    if (lineMatch) where = { line: Number(lineMatch[1]), column: Number(lineMatch[2]) };
    else if (posMatch) where = lineColumnAt(body, Number(posMatch[1]));
    else where = lineColumnAt(body, body.length);
    const reason = message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+.*$/, '');
    throw new RenderError(`invalid JSON: ${reason}`, { file, line: where.line, column: where.column, cause: err });
  }
}
