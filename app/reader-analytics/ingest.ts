import type { PageFeedbackStore, FeedbackInput } from '../../data/stores/page-feedback.js';
import type { PageBatchResult, PageViewStore, StoredPageView } from '../../data/stores/page-views.js';
import { createLogThrottle } from '../http/log-throttle.js';
import type { Logger } from '../logger.js';
import { classifyUserAgent } from './classify.js';
import type { ReaderEvent } from './events.js';
import { COLLECT_ALL, type SiteCollection } from './site-collection.js';
import type { VisitorHasher } from './visitor.js';

/** Who sent the events: used for the visitor hash and the human/AI split, never stored. */
export interface ReaderClient {
  ip: string;
  userAgent: string;
  /** The Host the request came with: it names the served site, whose bundle may switch collection off. */
  host?: string | undefined;
}

export interface ReaderIngestOptions {
  views: PageViewStore;
  feedback: PageFeedbackStore;
  hasher: VisitorHasher;
  log: Logger;
  enabled: () => boolean;
  /** What the site answered at a Host collects (its bundle's switches); default: everything. */
  siteCollection?: (host: string | undefined) => SiteCollection;
  /** After each written batch (the report folds it into its cached days). */
  onBatch?: (result: PageBatchResult) => void;
  onOutcome?: (outcome: 'rejected' | 'stored' | 'duplicate' | 'ignored' | 'dropped', n: number) => void;
  maxPending?: number;
}

/** A view id seen within this long counts once (retries, a page restored from the back-forward cache). */
const VIEW_DEDUP_MS = 30 * 60_000;
const VIEW_DEDUP_MAX = 200_000;

interface Waiter {
  views: boolean;
  feedback: boolean;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * The write path of reader events, shared by the site's beacon, the site listener's own count
 * of AI agents and (issue 19) beacons a serving replica forwards: `accept` is the one entry.
 * A group commit, as for searches (app/analytics/write-buffer.ts): events wait until the current
 * turn of the event loop ends (or 5,000 wait), then go to the database, page views in one
 * transaction and feedback in another; `accept`'s `stored` settles with the transactions that
 * hold its events (the beacon endpoint answers only then). A failed write keeps nothing and
 * forgets its view ids, so the same views sent again count.
 */
export function createReaderIngest(opts: ReaderIngestOptions) {
  const maxPending = opts.maxPending ?? 5_000;
  const throttle = createLogThrottle(opts.log);
  let views: StoredPageView[] = [];
  /** The dedup key of each pending view (null: an AI agent's, which has no view id). */
  let viewKeys: (string | null)[] = [];
  let feedback: FeedbackInput[] = [];
  let waiting: Waiter[] = [];
  let scheduled: NodeJS.Immediate | null = null;
  // Insertion-ordered: the oldest ids are forgotten first.
  const seenViews = new Map<string, number>();

  function flush(): number {
    if (scheduled) {
      clearImmediate(scheduled);
      scheduled = null;
    }
    const v = views;
    const keys = viewKeys;
    const f = feedback;
    const settle = waiting;
    views = [];
    viewKeys = [];
    feedback = [];
    waiting = [];
    let stored = 0;
    let viewsFailed: unknown;
    let feedbackFailed: unknown;
    if (v.length) {
      try {
        const result = opts.views.writeBatch(v);
        stored += v.length;
        opts.onBatch?.(result);
      } catch (err) {
        viewsFailed = err;
        for (const k of keys) if (k !== null) seenViews.delete(k);
        throttle.error('views', { err, events: v.length }, 'reader analytics: writing a batch of page views failed; its requests were refused');
        opts.onOutcome?.('dropped', v.length);
      }
    }
    if (f.length) {
      try {
        opts.feedback.recordMany(f);
        stored += f.length;
      } catch (err) {
        feedbackFailed = err;
        throttle.error('feedback', { err, events: f.length }, 'reader analytics: writing a batch of feedback failed; its requests were refused');
        opts.onOutcome?.('dropped', f.length);
      }
    }
    if (stored) opts.onOutcome?.('stored', stored);
    for (const w of settle) {
      const failed = (w.views && viewsFailed) || (w.feedback && feedbackFailed);
      if (failed) w.reject(failed);
      else w.resolve();
    }
    return stored;
  }

  function schedule() {
    if (views.length + feedback.length >= maxPending) flush();
    else scheduled ??= setImmediate(flush);
  }

  /** Settles when the events just queued are written (see above); ignoring it is safe. */
  function stored(kinds: { views: boolean; feedback: boolean }): Promise<void> {
    if (!kinds.views && !kinds.feedback) return Promise.resolve();
    const p = new Promise<void>((resolve, reject) => waiting.push({ ...kinds, resolve, reject }));
    // Marked handled: a caller that does not wait (the site listener's own counts) must not turn a
    // failed write into an unhandled rejection; one that awaits still sees it.
    p.catch(() => undefined);
    return p;
  }

  function firstSighting(projectId: string, viewId: string, nowMs: number): string | null {
    const k = `${projectId}:${viewId}`;
    const at = seenViews.get(k);
    if (at !== undefined && nowMs - at < VIEW_DEDUP_MS) return null;
    seenViews.delete(k);
    seenViews.set(k, nowMs);
    if (seenViews.size > VIEW_DEDUP_MAX) seenViews.delete(seenViews.keys().next().value!);
    return k;
  }

  const collection = (host: string | undefined) => opts.siteCollection?.(host) ?? COLLECT_ALL;

  return {
    enabled: opts.enabled,
    /** Whether page views from this Host are collected: the appliance's switch and the site's own. */
    collects(host: string | undefined): boolean {
      return opts.enabled() && collection(host).pageViews;
    },
    /**
     * Take checked events of one request for `projectId`. Page views from user agents that are
     * not a person's browser are ignored here: AI agents are counted by the site listener (they
     * run no script, so a beacon of theirs would be a second count) and other bots not at all.
     * Returns how many events were kept for writing, and when they are stored (see above).
     */
    accept(projectId: string, events: readonly ReaderEvent[], client: ReaderClient, nowMs: number): { kept: number; stored: Promise<void> } {
      if (!opts.enabled()) {
        opts.onOutcome?.('ignored', events.length);
        return { kept: 0, stored: Promise.resolve() };
      }
      let kept = 0;
      const kinds = { views: false, feedback: false };
      const site = collection(client.host);
      const traffic = classifyUserAgent(client.userAgent);
      // One request is one reader: hashed once, not per event (a SHA-256 per view was the
      // largest cost of a 100-view beacon batch).
      let visitor: number | undefined;
      for (const e of events) {
        if (e.kind === 'feedback') {
          // The site's switches: thumbs and contextual votes need its "Was this page helpful?", code feedback its code-block button.
          if (!(e.input.source === 'code_snippet' ? site.code : site.thumbs)) {
            opts.onOutcome?.('ignored', 1);
            continue;
          }
          feedback.push({ ...e.input, projectId, atMs: nowMs });
          kinds.feedback = true;
          kept++;
          continue;
        }
        if (e.kind === 'agentview') {
          // Classified by the replica's listener that served the page (the request is keyed).
          if (!site.pageViews) {
            opts.onOutcome?.('ignored', 1);
            continue;
          }
          visitor ??= opts.hasher.hash(nowMs, client.ip, client.userAgent, projectId);
          views.push({ projectId, atMs: nowMs, path: e.path, ai: 1, visitor });
          viewKeys.push(null);
          kinds.views = true;
          kept++;
          continue;
        }
        if (traffic !== 'human' || !site.pageViews) {
          opts.onOutcome?.('ignored', 1);
          continue;
        }
        const key = firstSighting(projectId, e.viewId, nowMs);
        if (key === null) {
          opts.onOutcome?.('duplicate', 1);
          continue;
        }
        visitor ??= opts.hasher.hash(nowMs, client.ip, client.userAgent, projectId);
        views.push({ projectId, atMs: nowMs, path: e.path, ai: 0, visitor });
        viewKeys.push(key);
        kinds.views = true;
        kept++;
      }
      const done = stored(kinds);
      if (kept) schedule();
      return { kept, stored: done };
    },
    /** A page (HTML or Markdown) the site listener served to an AI agent: one AI view. */
    acceptAgentView(projectId: string, path: string, client: ReaderClient, nowMs: number): void {
      if (!opts.enabled() || !collection(client.host).pageViews) {
        opts.onOutcome?.('ignored', 1);
        return;
      }
      views.push({ projectId, atMs: nowMs, path, ai: 1, visitor: opts.hasher.hash(nowMs, client.ip, client.userAgent, projectId) });
      viewKeys.push(null);
      schedule();
    },
    /** Reader events not collected before they reached `accept` (a replica with collection off): counted. */
    countIgnored(n: number): void {
      opts.onOutcome?.('ignored', n);
    },
    /** Reader events the beacon endpoint refused (malformed): counted, never searched for. */
    countRejected(n: number): void {
      opts.onOutcome?.('rejected', n);
    },
    flush,
    pendingCount: () => views.length + feedback.length,
  };
}

export type ReaderIngest = ReturnType<typeof createReaderIngest>;
