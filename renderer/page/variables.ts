/**
 * `{{name}}` substitution from the site config's `variables`. An unknown name stays as written and
 * is reported, except inside code, where `{{ secrets.TOKEN }}` is usually template syntax of the
 * example itself (GitHub Actions, Jinja, Handlebars).
 */
import { closesFence, fenceOpening } from './fence-open.js';
import type { PageState } from './state.js';

const VARIABLE_RE = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

export function substituteVariables(body: string, variables: Record<string, string>, state: PageState, file: string, firstLine: number): string {
  if (!body.includes('{{')) return body;
  let fenced: boolean[] | undefined;
  return body.replace(VARIABLE_RE, (whole, name: string, offset: number) => {
    if (Object.hasOwn(variables, name)) return String(variables[name]);
    const line = countNewlines(body, offset);
    fenced ??= fencedLines(body);
    if (!fenced[line] && !insideInlineCode(body, offset)) {
      state.warn('unknown-variable', `{{${name}}} is not defined in the config's variables`, file, firstLine + line);
    }
    return whole;
  });
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** For each line (0-based), whether it lies inside a fenced code block (fence lines included). */
function fencedLines(body: string): boolean[] {
  const out: boolean[] = [];
  let open: string | undefined;
  for (const line of body.split('\n')) {
    if (open === undefined) {
      open = fenceOpening(line);
      out.push(open !== undefined);
    } else {
      out.push(true);
      if (closesFence(line, open)) open = undefined;
    }
  }
  return out;
}

function insideInlineCode(body: string, offset: number): boolean {
  const lineStart = body.lastIndexOf('\n', offset - 1) + 1;
  let ticks = 0;
  for (let i = lineStart; i < offset; i++) if (body.charCodeAt(i) === 96) ticks++;
  return ticks % 2 === 1;
}
