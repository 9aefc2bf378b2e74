import type { Config } from '../../config/schema.js';
import { ApiError, errors } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Caller, ConversationStore } from './conversations.js';
import { streamCompletion } from './model-stream.js';
import { buildMessages, NOT_COVERED, type CallerMessage } from './prompt.js';
import type { SectionVectors } from './embeddings.js';
import { rankPassages } from './rank.js';
import type { ReaderView } from '../../renderer/access/contract.js';
import { normalisePagePath, type Passage, type Scope, type SiteRetrieval } from './retrieval.js';

export interface Source {
  id: string;
  url: string;
  title: string;
}

/** Where an answer goes as it is made: one implementation per wire protocol (ui-stream.ts). */
export interface AnswerSink {
  start(meta: { messageId: string; threadId: string }): void;
  text(delta: string): void;
  sources(list: Source[]): void;
  error(message: string): void;
  finish(meta: { threadId: string; finishReason: string }): void;
}

export interface AnswerRequest {
  projectId: string;
  caller: Caller;
  /** The caller's messages, user and assistant only (system ones are dropped before this). */
  messages: CallerMessage[];
  threadId?: string | null | undefined;
  currentPath?: string | undefined;
  filter?: Scope | undefined;
  retrievalPageSize?: number | undefined;
  /** Host name of the site asked about (a site listener's Host, or the discovery `{domain}`'s project domain). */
  host?: string | undefined;
  /** Prefix for source URLs (`https://docs.example.com` for API callers; '' on the site itself). */
  urlBase: string;
  /** What the caller may see of a bundle with reader access (issue 40); default ANONYMOUS. */
  view?: ReaderView | undefined;
}

export interface SiteSource {
  retrieval: SiteRetrieval;
  /** The served site's project (null for the bundle of staticExport or the first start). */
  projectId: string | null;
  site: { root: string };
  /** The site's section vectors when embeddings are configured (made in the background). */
  vectors(): Promise<SectionVectors | undefined>;
}

/** The passages to send: best first, as many as fit the character budget (at least one). */
export function fitPassages(passages: Passage[], maxChars: number): Passage[] {
  const out: Passage[] = [];
  let used = 0;
  for (const p of passages) {
    const size = p.text.length + p.heading.length + p.title.length + p.url.length + 40;
    if (out.length > 0 && used + size > maxChars) break;
    out.push(out.length === 0 && size > maxChars ? { ...p, text: p.text.slice(0, Math.max(200, maxChars - 200)) } : p);
    used += size;
  }
  return out;
}

/** The pages the answer links to, among those it was given; else every page it was given. */
export function citedSources(answer: string, passages: Passage[], urlBase: string): Source[] {
  const byPath = new Map<string, Passage>();
  for (const p of passages) if (!byPath.has(p.path)) byPath.set(p.path, p);
  const cited: Passage[] = [];
  for (const m of answer.matchAll(/\]\(\s*<?([^)\s>]+)>?/g)) {
    const path = normalisePagePath(m[1]!);
    const hit = path === undefined ? undefined : byPath.get(path);
    if (hit && !cited.includes(hit)) cited.push(hit);
  }
  const list = cited.length ? cited : [...byPath.values()];
  return list.map((p, i) => ({ id: `source-${i + 1}`, url: `${urlBase}${p.url.replace(/#.*$/, '')}`, title: p.title }));
}

/**
 * The assistant: checks a request (off, busy, bad input: an ApiError before anything streams),
 * then retrieves passages for the question in the reader's language and version, streams the
 * model's answer through a sink, and stores the turn. With no passage found, the model is not
 * asked: the answer is that the documentation does not cover the question.
 */
export function createAssistant(deps: { config: () => Readonly<Config>; site: (host?: string, view?: ReaderView) => SiteSource | undefined; conversations: ConversationStore; log: Logger; now: () => Date; env: NodeJS.ProcessEnv }) {
  let active = 0;

  async function prepare(req: AnswerRequest) {
    const cfg = deps.config().assistant;
    if (!cfg.baseUrl || !cfg.model) throw errors.assistantOff();
    const site = deps.site(req.host, req.view);
    if (!site) throw errors.siteNotServed();
    const last = req.messages[req.messages.length - 1];
    if (!last || last.role !== 'user' || !last.content.trim()) throw new ApiError(400, 'BAD_REQUEST', 'The last message must be a user message with text');
    for (const m of req.messages) {
      if (m.content.length > cfg.maxQuestionChars) throw new ApiError(400, 'BAD_REQUEST', `A message is ${m.content.length} characters; at most ${cfg.maxQuestionChars} are accepted`);
    }
    if (active >= cfg.maxConcurrent) throw errors.assistantBusy();
    const question = last.content.trim();
    const history = req.messages.slice(0, -1).slice(-cfg.maxHistoryMessages);
    // A follow-up ("and for refunds?") is searched with the question before it.
    const previous = [...history].reverse().find((m) => m.role === 'user')?.content ?? '';
    const scope = { ...(await site.retrieval.scopeOf(req.currentPath)), ...Object.fromEntries(Object.entries(req.filter ?? {}).filter(([, v]) => v !== undefined)) };
    const limit = Math.min(20, Math.max(1, Math.round(req.retrievalPageSize ?? cfg.retrievalPageSize)));
    // Counted from here: the retrieval below may wait on the embeddings endpoint.
    active++;
    let passages: Passage[];
    let threadId: string;
    let siteName: string;
    try {
      siteName = (await site.retrieval.info()).name;
      const vectors = await site.vectors();
      passages = await rankPassages(site.retrieval, vectors, question, { ...scope, limit });
      if (previous && passages.length < limit) {
        const first = passages;
        const more = (await rankPassages(site.retrieval, vectors, `${question} ${previous}`, { ...scope, limit })).filter((p) => !first.some((q) => q.url === p.url && q.text === p.text));
        passages = [...first, ...more].slice(0, limit);
      }
      passages = fitPassages(passages, cfg.maxContextChars);
      threadId = deps.conversations.thread(req.projectId, req.threadId);
    } catch (err) {
      active--;
      throw err;
    }
    let released = false;
    const release = () => {
      if (!released) active--;
      released = true;
    };
    return { threadId, passages, run: (sink: AnswerSink, signal: AbortSignal) => run(req, { siteName, question, history, passages, threadId }, sink, signal).finally(release), release };
  }

  async function run(req: AnswerRequest, p: { siteName: string; question: string; history: CallerMessage[]; passages: Passage[]; threadId: string }, sink: AnswerSink, clientSignal: AbortSignal) {
    const cfg = deps.config().assistant;
    const askedAt = deps.now();
    const messageId = `msg_${askedAt.getTime().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    sink.start({ messageId, threadId: p.threadId });
    let answer = '';
    let finishReason = 'stop';
    let failed: string | undefined;
    if (p.passages.length === 0) {
      answer = `${NOT_COVERED} No page of these docs matches the question.`;
      sink.text(answer);
    } else {
      const timeout = AbortSignal.timeout(cfg.timeoutSeconds * 1000);
      const capped = new AbortController();
      const signal = AbortSignal.any([clientSignal, timeout, capped.signal]);
      const apiKey = deps.config().assistant.apiKeyEnv ? deps.env[deps.config().assistant.apiKeyEnv!] : undefined;
      try {
        const messages = buildMessages({ siteName: p.siteName, history: p.history, question: p.question, passages: p.passages, currentPath: req.currentPath });
        const stream = streamCompletion(messages, { baseUrl: cfg.baseUrl!, model: cfg.model!, apiKey, maxTokens: cfg.maxAnswerTokens, signal });
        for (;;) {
          const next = await stream.next();
          if (next.done) {
            finishReason = next.value.finishReason;
            break;
          }
          let delta = next.value;
          if (answer.length + delta.length > cfg.maxAnswerChars) {
            delta = delta.slice(0, cfg.maxAnswerChars - answer.length);
            finishReason = 'length';
          }
          if (delta) {
            answer += delta;
            sink.text(delta);
          }
          if (finishReason === 'length') {
            capped.abort();
            await stream.return({ finishReason }).catch(() => undefined);
            break;
          }
        }
      } catch (err) {
        if (clientSignal.aborted) failed = 'the client went away';
        else if (timeout.aborted) failed = `The answer took longer than ${cfg.timeoutSeconds} s and was stopped.`;
        else failed = 'The model could not answer right now. Try again later.';
        deps.log.warn({ err: (err as Error).message, projectId: req.projectId }, 'assistant answer failed');
        finishReason = 'error';
      }
    }
    const unanswered = answer.trim().startsWith(NOT_COVERED) || (failed !== undefined && !answer);
    const sources = unanswered ? [] : citedSources(answer, p.passages, req.urlBase);
    if (sources.length) sink.sources(sources);
    if (failed && !clientSignal.aborted) sink.error(failed);
    if (!clientSignal.aborted) sink.finish({ threadId: p.threadId, finishReason });
    try {
      deps.conversations.addTurn({
        threadId: p.threadId,
        projectId: req.projectId,
        caller: req.caller,
        askedAt,
        answeredAt: deps.now(),
        query: p.question,
        response: answer,
        sources: sources.map((s) => ({ title: s.title, url: s.url })),
        resolution: unanswered ? 'unanswered' : 'answered',
        pageUrl: req.currentPath ? `${req.urlBase}${req.currentPath.slice(0, 200)}` : null,
      });
    } catch (err) {
      deps.log.error({ err: (err as Error).message }, 'assistant: storing the conversation turn failed');
    }
  }

  return { prepare, activeCount: () => active };
}

export type Assistant = ReturnType<typeof createAssistant>;
