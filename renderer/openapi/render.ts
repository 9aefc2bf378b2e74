/** Worker side: an API page's generated part, rendered through the page's own components. */
import type { Env } from '../page/env.js';
import { highlightCode, parseFenceInfo, withKnownHighlights } from '../page/code.js';
import { codeFrame } from '../page/markdown.js';
import { withoutPlaceholders } from '../page/state.js';
import type { TextNode } from '../page/tree.js';
import { endpointHeader } from '../page/openapi.js';
import { renderNodes } from '../page/render.js';
import type { PageState } from '../page/state.js';
import { channelTree, fenceInfo, operationTree, schemaTree, type CodeBlock } from './page-tree.js';
import { operationPlayground } from './playground.js';
import { publicOperation } from './public-view.js';
import type { ApiPageData } from './types.js';
import type { ApiExamplePanel } from '../types.js';

export function renderApiPage(api: ApiPageData, contentHtml: string, frontmatter: Record<string, unknown>, env: Env, state: PageState): string {
  // The generated sections speak the page's navigation language (their ids stay English).
  const words = { api: state.apiWords, properties: state.words.properties };
  const labels = { baseUrls: state.apiWords.baseUrls, deprecated: state.words.deprecated };
  if (api.kind === 'schema') return contentHtml + renderNodes(schemaTree(api.schema, words), env, state, 'block');
  if (api.kind === 'channel') {
    const ch = api.channel;
    // No live connection: the header names the protocol and address; the servers are listed.
    const header = endpointHeader({ method: (ch.protocol ?? 'channel').toUpperCase(), path: ch.address, servers: ch.servers, showBase: true }, labels);
    return header + contentHtml + renderNodes(channelTree(ch, words), env, state, 'block');
  }
  const op = api.operation;
  // A webhook is sent by the API to the reader's own endpoint: the API's servers are not where it goes.
  const servers = op.method === 'WEBHOOK' ? [] : op.servers;
  const header = endpointHeader({ method: op.method, path: op.path, servers, showBase: op.showBaseUrl, deprecated: op.deprecated || frontmatter['deprecated'] === true }, labels);
  // The operation's description, unless the frontmatter already says what the page is (a generated
  // page's frontmatter carries a one-paragraph description; longer ones go in the body).
  const description = typeof frontmatter['description'] !== 'string';
  const known = new Map<string, string>();
  // With reader access on, the examples and the playground show only what every reader may see.
  const shared = state.ctx.readerAccess === true ? publicOperation(op) : op;
  const playground = operationPlayground(shared, state.ctx.config, frontmatter);
  if (playground) state.usesPlayground = true;
  // The playground is prefilled from the reader's `apiPlaygroundInputs` (reader.js) on sites with reader access.
  if (playground && state.ctx.readerAccess === true) state.readsUser = true;
  const examples: ApiExamplePanel[] = [];
  const body = withKnownHighlights(known, () => renderNodes(operationTree(op, description, known, renderedBlock(state), examples, shared, words), env, state, 'block'));
  if (examples.length > 0) state.apiExamples = examples;
  return header + playground + contentHtml + body;
}

/**
 * The examples column's code blocks made here, as the Markdown fence would make them (the same
 * info string, highlight, frame and slot), without Markdown lexing a few KB of generated code per
 * page: the block goes into the tree as its slot's placeholder.
 */
function renderedBlock(state: PageState): CodeBlock {
  return (lang, title, raw): TextNode => {
    const body = withoutPlaceholders(raw).replace(/\r\n|\r/g, "\n");
    const info = parseFenceInfo(fenceInfo(lang, title));
    const pre = highlightCode(body, info);
    const html = codeFrame(pre, info.title ?? info.lang, info.title !== undefined, state.words);
    const slot = state.block(html, body, info.title === undefined ? { lang: info.lang, inner: pre } : { lang: info.lang, title: info.title, inner: pre });
    return { kind: 'text', value: `\n\n${slot}\n\n` };
  };
}
