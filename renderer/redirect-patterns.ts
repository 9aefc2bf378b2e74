/**
 * Mintlify's redirect patterns, shared by the renderer (link following, the bundle's redirect
 * list and nginx snippet) and the appliance's site listener, so all three read a pattern alike.
 *
 * Paths are site paths without the leading slash (`beta/intro`). A source segment `:name`
 * matches one segment; `:name*` any number of segments, none included (`/beta/:slug*` matches
 * `/beta` too); `:name+` one or more; a `*` anywhere matches any run of characters, slashes
 * included (`/articles/concepts-*`). The destination takes the captures back: `:name`, `:name*`
 * or `:name+` by name, each bare `*` the bare-`*` captures in order.
 *
 * At most MAX_GREEDY wildcards that can span slashes per source: each one more multiplies the
 * regular expression's worst case by the path's length, and the listener runs these on requests.
 */
export const MAX_GREEDY = 2;

export interface CompiledRedirect {
  readonly source: string;
  readonly destination: string;
  /** The destination for a site path, captures passed through `encode`; undefined when it does not match. */
  match(sitePath: string, encode?: (capture: string) => string): string | undefined;
}

const PARAM_SEGMENT_RE = /^:([A-Za-z_]\w*)([*+?]?)$/;
const NAMED_IN_DESTINATION_RE = /:([A-Za-z_]\w*)[*+?]?/g;

function escapeRe(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

export function trimSlashes(p: string): string {
  return p.replace(/^\/+|\/+$/g, '');
}

/** True when a source uses Mintlify's pattern syntax (a `:param` segment or a `*`). */
export function isPatternSource(source: string): boolean {
  return trimSlashes(source)
    .split('/')
    .some((seg) => PARAM_SEGMENT_RE.test(seg) || seg.includes('*'));
}

/** A source as a regular expression body (`^…`, no `$`) and what each capture group is called. */
export interface PatternShape {
  re: string;
  /** The name of each capture group in order; undefined for a bare `*`. */
  names: (string | undefined)[];
  /** Wildcards that can span slashes. */
  greedy: number;
}

export function patternShape(source: string): PatternShape {
  const segments = trimSlashes(source).split('/');
  const names: (string | undefined)[] = [];
  let greedy = 0;
  let re = '^';
  segments.forEach((seg, i) => {
    const param = PARAM_SEGMENT_RE.exec(seg);
    const sep = i === 0 ? '' : '/';
    if (param?.[1]) {
      const kind = param[2];
      names.push(param[1]);
      if (kind === '*') {
        greedy++;
        // Optional, with its slash: `/beta/:slug*` matches `beta` as well as `beta/a/b`.
        re += `(?:${sep}(.*))?`;
      } else if (kind === '?') {
        re += `(?:${sep}([^/]+))?`;
      } else if (kind === '+') {
        greedy++;
        re += `${sep}(.+)`;
      } else {
        re += `${sep}([^/]+)`;
      }
      return;
    }
    re += sep;
    seg.split('*').forEach((part, j) => {
      if (j > 0) {
        greedy++;
        names.push(undefined);
        re += '(.*)';
      }
      re += escapeRe(part);
    });
  });
  return { re, names, greedy };
}

/** The destination with the captures put back: named ones by name, each bare `*` in turn. */
export function fillDestination(destination: string, names: readonly (string | undefined)[], captures: readonly string[]): string {
  const named = new Map<string, string>();
  const bare: string[] = [];
  names.forEach((name, k) => {
    const value = captures[k] ?? '';
    if (name === undefined) bare.push(value);
    else if (!named.has(name)) named.set(name, value);
  });
  let next = 0;
  const fallback = bare[0] ?? named.values().next().value ?? '';
  return destination
    .replace(NAMED_IN_DESTINATION_RE, (whole, name: string) => named.get(name) ?? whole)
    .replace(/\*/g, () => bare[next++] ?? fallback);
}

/** A compiled pattern, or why the source cannot be one. */
export function compileRedirect(source: string, destination: string): CompiledRedirect | { error: string } {
  const shape = patternShape(source);
  if (shape.greedy > MAX_GREEDY) return { error: `more than ${MAX_GREEDY} wildcards that span slashes` };
  // dotAll: a decoded path may hold any character, line breaks included.
  const regex = new RegExp(`${shape.re}$`, 's');
  return {
    source,
    destination,
    match(sitePath, encode = (s) => s) {
      const m = regex.exec(sitePath);
      if (!m) return undefined;
      return fillDestination(destination, shape.names, shape.names.map((_, k) => encode(m[k + 1] ?? '')));
    },
  };
}
