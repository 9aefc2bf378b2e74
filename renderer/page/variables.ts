/** `{{name}}` substitution from the site config's `variables`; unknown names stay and are reported. */
import type { PageState } from './state.js';

const VARIABLE_RE = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

export function substituteVariables(body: string, variables: Record<string, string>, state: PageState, file: string, firstLine: number): string {
  if (!body.includes('{{')) return body;
  return body.replace(VARIABLE_RE, (whole, name: string, offset: number) => {
    if (Object.hasOwn(variables, name)) return String(variables[name]);
    state.warn('unknown-variable', `{{${name}}} is not defined in the config's variables`, file, firstLine + countNewlines(body, offset));
    return whole;
  });
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
