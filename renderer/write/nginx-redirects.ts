/**
 * `nginx-redirects.conf`: the site's redirects for an nginx that serves the unzipped bundle, to
 * `include` inside its `server { }` block (docs/renderer.md shows one). Plain redirects answer
 * with their real status before any file; pattern redirects (`/old/:slug*`) only when no file
 * answers the path, as the appliance's site listener applies them.
 */
import { isPatternSource, MAX_GREEDY, patternShape, fillDestination } from '../redirect-patterns.js';
import type { BundleRedirect } from '../types.js';

export const NGINX_REDIRECTS_PATH = 'nginx-redirects.conf';

/**
 * Characters nginx would read as syntax or a variable. Both sides are written in double quotes;
 * `$` cannot be escaped there at all. Sources are kept to a plainer set still.
 */
const UNSAFE_SOURCE_RE = /["'\\$\s{};#]/;
const UNSAFE_DESTINATION_RE = /["\\$\s]/;

function queryPart(destination: string): string {
  // The visitor's query string goes along, unless the destination sets its own.
  return /[?#]/.test(destination) ? '' : '$is_args$args';
}

export function nginxRedirects(rules: readonly BundleRedirect[]): string {
  const exact: string[] = [];
  const patterns: string[] = [];
  for (const r of rules) {
    if (UNSAFE_SOURCE_RE.test(r.source) || UNSAFE_DESTINATION_RE.test(r.destination.replace(/:[A-Za-z_]\w*[*+?]?/g, ''))) {
      (isPatternSource(r.source) ? patterns : exact).push(`# skipped (characters nginx cannot take as written): ${JSON.stringify(r.source)} -> ${JSON.stringify(r.destination)}`);
      continue;
    }
    if (!isPatternSource(r.source)) {
      exact.push(`location = "${r.source}" { return ${r.status} "${r.destination}${queryPart(r.destination)}"; }`);
      exact.push(`location = "${r.source}/" { return ${r.status} "${r.destination}${queryPart(r.destination)}"; }`);
      continue;
    }
    const shape = patternShape(r.source);
    if (shape.greedy > MAX_GREEDY) continue;
    const target = fillDestination(r.destination, shape.names, shape.names.map((_, k) => `$${k + 1}`));
    patterns.push(`  if ($uri ~ "^/${shape.re.slice(1)}/?$") { return ${r.status} "${target}${queryPart(r.destination)}"; }`);
  }
  return [
    '# Redirects of this docs bundle, for nginx. Include inside the server { } block whose root is',
    '# the unzipped bundle:   include /path/to/bundle/nginx-redirects.conf;',
    '# It defines `location /`, one for paths ending in `/` and `location @docs_redirects`: merge them with yours.',
    '',
    ...exact,
    '',
    '# Files as the appliance looks them up: /a → a, a.html, a/index.html; /a/ → a/index.html, a.html.',
    'location / {',
    '  try_files $uri $uri.html $uri/index.html @docs_redirects;',
    '}',
    'location ~ ^(?<docs_dir>.+)/$ {',
    '  try_files $docs_dir/index.html $docs_dir.html @docs_redirects;',
    '}',
    '',
    '# Pattern redirects apply only to paths no file answers, in the order docs.json lists them.',
    'location @docs_redirects {',
    ...patterns,
    '  error_page 404 /404.html;',
    '  return 404;',
    '}',
    '',
  ].join('\n');
}

/** The manifest's `redirects`: the pattern redirects, which the appliance applies at request time. */
export function manifestRedirects(rules: readonly BundleRedirect[] | undefined): BundleRedirect[] {
  return (rules ?? []).filter((r) => isPatternSource(r.source));
}
