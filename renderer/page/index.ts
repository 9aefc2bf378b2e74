/**
 * The "render a page" stage: one Mintlify-style MDX/Markdown source → PageContent (body HTML,
 * toc, plain text, warnings). Synchronous and self-contained so a piscina worker can call it for
 * many pages in a row; everything expensive (marked, highlight.js, snippet parses) is set up once
 * per process.
 *
 * Flow: frontmatter → {{variables}} → MDX tree (parse.ts) → imports/exports into a scope →
 * render (components to slots, markdown through marked) → resolve slots, heading ids, toc, text.
 */
import { RenderError, type PageContent, type RenderContext } from '../types.js';
import type { Env } from './env.js';
import { looksLikeLostFrontmatter, splitFrontmatter, stringField, titleFromFile, type SplitPage } from './frontmatter.js';
import { htmlToText } from './html.js';
import { ANONYMOUS } from '../access/contract.js';
import { filterMarked } from '../access/filter.js';
import { finishIslands, type PageIslands } from '../islands/island.js';
import { withReaderScript } from '../islands/reader-script.js';
import { endpointHeader, parseEndpoint } from './openapi.js';
import { handWrittenPlayground } from '../openapi/playground.js';
import { renderApiPage } from '../openapi/render.js';
import type { ApiPageData } from '../openapi/types.js';
import { parseMdx } from './parse.js';
import { footnotesOf, footnotesSection, numberFootnotes } from './footnotes.js';
import { renderNodes } from './render.js';
import { oneByte } from './one-byte.js';
import { normaliseText, resolveHeadings, Resolver } from './resolve.js';
import { buildScope, esmBlocks } from './snippets.js';
import { PageState, withoutPlaceholders } from './state.js';
import { substituteVariables } from './variables.js';

export interface PageInput {
  file: string;
  source: string;
  ctx: RenderContext;
  /** An API page's operation or schema (renderer/openapi), compacted by plan. */
  api?: ApiPageData;
  /** A page generated from a spec: `source` is its body (x-mint.content), this its frontmatter. */
  frontmatter?: Record<string, unknown>;
  /** The page's navigation language (its section's), for the words the content writes itself. */
  lang?: string;
}

export function renderPageContent(input: PageInput): PageContent {
  const { file, source, ctx } = input;
  try {
    return render(file, source, ctx, input);
  } catch (err) {
    if (err instanceof RenderError) throw err;
    // A bug of ours on odd input must still name the page, never take the worker down unlabelled.
    throw new RenderError(`Could not render the page: ${describeFailure(err)}`, { file, cause: err });
  }
}

/** marked appends a plea to report the error to its own tracker; the author of the page is the reader here. */
const MARKED_REPORT_SUFFIX = /\s*Please report this to https:\/\/github\.com\/markedjs\/marked\.?\s*$/;

function describeFailure(err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).replace(MARKED_REPORT_SUFFIX, '');
  if (err instanceof RangeError && /call stack/i.test(message)) {
    return `its Markdown is nested too deeply to render (${message}); look for very deep lists, quotes or brackets`;
  }
  return message;
}

function render(file: string, source: string, ctx: RenderContext, input: PageInput): PageContent {
  const state = new PageState(ctx, file, input.lang);
  const split: SplitPage = input.frontmatter ? { frontmatter: input.frontmatter, body: source, bodyLineOffset: 0 } : splitFrontmatter(file, source);
  const { frontmatter, body, bodyLineOffset } = split;
  if (split.unclosed && looksLikeLostFrontmatter(body)) {
    state.warn('unclosed-frontmatter', 'The page starts with --- and key: value lines but no closing ---: Mintlify reads it as a horizontal rule and text, not as frontmatter', file, 1);
  }
  const firstLine = bodyLineOffset + 1;
  const text = withoutPlaceholders(substituteVariables(body, ctx.config.variables ?? {}, state, file, firstLine));
  const tree = parseMdx(file, text, firstLine, { esm: true });

  const warn = state.warn.bind(state);
  const scope = buildScope(file, esmBlocks(tree.nodes), ctx.repoRoot, state.snippetMemo, warn, [file]);
  const env: Env = { file, source: text, firstLine, scope };

  state.footnotes = footnotesOf(text);
  let html = renderNodes(tree.nodes, env, state, 'block');
  html += footnotesSection(state.footnotes, state.words);
  if (input.api) {
    // The page's own content first, then the reference generated from the spec (as Mintlify).
    html = renderApiPage(input.api, html, frontmatter, env, state);
  } else {
    const endpoint = parseEndpoint(frontmatter['openapi'] ?? frontmatter['api']);
    if (endpoint) {
      // `api:` pages (hand-written) get a playground; an `openapi:` operation no spec has does not.
      const playground = frontmatter['api'] !== undefined && frontmatter['openapi'] === undefined ? handWrittenPlayground(endpoint, ctx.config, frontmatter) : '';
      if (playground) state.usesPlayground = true;
      // Prefilled from the reader's apiPlaygroundInputs (reader.js) on sites with reader access.
      if (playground && ctx.readerAccess === true) state.readsUser = true;
      html = endpointHeader(endpoint, { baseUrls: state.apiWords.baseUrls, deprecated: state.words.deprecated }) + playground + html;
    }
  }

  const resolver = new Resolver(state);
  // The page's text (search, llms-full) without group-dependent fragments: one text for every reader.
  const textHtml = ctx.readerAccess === true ? filterMarked(html, ANONYMOUS) : html;
  const plain = normaliseText(resolver.text(htmlToText(textHtml)));
  const resolved = resolveHeadings(resolver.html(html), state, resolver);
  const headed = state.footnotes ? { ...resolved, html: numberFootnotes(resolved.html, state.words) } : resolved;

  const title = stringField(frontmatter, 'title') ?? titleFromFile(file, ctx.config.name);
  const description = stringField(frontmatter, 'description');
  const mode = stringField(frontmatter, 'mode');
  return {
    title,
    ...(description === undefined ? {} : { description }),
    frontmatter,
    // One byte a character again after the placeholders (one-byte.ts): the layout, the encoder
    // and the text passes after this read the page's HTML and text several times.
    html: oneByte(headed.html),
    toc: headed.toc.map((t) => ({ ...t, id: oneByte(t.id), text: oneByte(t.text) })),
    text: oneByte(plain),
    ...(mode === undefined ? {} : { mode }),
    usesMath: state.usesMath,
    usesMermaid: state.usesMermaid,
    ...(state.usesPlayground ? { usesPlayground: true } : {}),
    ...(state.apiExamples ? { apiExamples: state.apiExamples } : {}),
    ...(state.islands || state.readsUser ? { islands: pageIslands(state) } : {}),
    warnings: state.finalWarnings(),
  };
}

/** The page's scripts and files; reader.js first when the page reads the signed-in reader. */
function pageIslands(state: PageState): PageIslands {
  const islands = state.islands ? finishIslands(state, state.islands) : undefined;
  return state.readsUser ? withReaderScript(islands) : (islands as PageIslands);
}
