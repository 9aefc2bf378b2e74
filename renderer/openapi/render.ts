/** Worker side: an API page's generated part, rendered through the page's own components. */
import type { Env } from '../page/env.js';
import { withKnownHighlights } from '../page/code.js';
import { endpointHeader } from '../page/openapi.js';
import { renderNodes } from '../page/render.js';
import type { PageState } from '../page/state.js';
import { channelTree, operationTree, schemaTree } from './page-tree.js';
import { operationPlayground } from './playground.js';
import type { ApiPageData } from './types.js';

export function renderApiPage(api: ApiPageData, contentHtml: string, frontmatter: Record<string, unknown>, env: Env, state: PageState): string {
  if (api.kind === 'schema') return contentHtml + renderNodes(schemaTree(api.schema), env, state, 'block');
  if (api.kind === 'channel') {
    const ch = api.channel;
    // No live connection: the header names the protocol and address; the servers are listed.
    const header = endpointHeader({ method: (ch.protocol ?? 'channel').toUpperCase(), path: ch.address, servers: ch.servers, showBase: true });
    return header + contentHtml + renderNodes(channelTree(ch), env, state, 'block');
  }
  const op = api.operation;
  const header = endpointHeader({ method: op.method, path: op.path, servers: op.servers, showBase: op.showBaseUrl, deprecated: op.deprecated || frontmatter['deprecated'] === true });
  // The operation's description, unless the frontmatter already says what the page is (a generated
  // page's frontmatter carries a one-paragraph description; longer ones go in the body).
  const description = typeof frontmatter['description'] !== 'string';
  const known = new Map<string, string>();
  const tree = operationTree(op, description, known);
  const playground = operationPlayground(op, state.ctx.config, frontmatter);
  if (playground) state.usesPlayground = true;
  return header + playground + contentHtml + withKnownHighlights(known, () => renderNodes(tree, env, state, 'block'));
}
