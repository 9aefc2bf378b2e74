import { parentPort, workerData } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { buildInChild, stopBuilds } from './build-in-child.js';
import { indexFileFor, openIndexFile, type IndexSummary } from './index-file.js';
import { indexQueries } from './index-queries.js';
import type { RetrievalReply, RetrievalRequest, RetrievalWorkerData } from './protocol.js';

/**
 * The retrieval thread: owns every bundle's FTS5 index (building it from the bundle's section
 * index on first open) and answers the main thread's queries, so neither the corpus nor its
 * ranking ever sits on the thread that serves readers.
 */
const { cacheDir } = workerData as RetrievalWorkerData;

interface Open {
  db: Database.Database;
  summary: IndexSummary;
  q: ReturnType<typeof indexQueries>;
}

const opening = new Map<string, Promise<Open>>();

async function open(root: string): Promise<Open> {
  const { file, source } = indexFileFor(root, cacheDir);
  let opened: ReturnType<typeof openIndexFile>;
  try {
    opened = openIndexFile(file);
  } catch {
    await buildInChild(source, file);
    opened = openIndexFile(file);
  }
  return { ...opened, q: indexQueries(opened.db) };
}

function site(root: string): Promise<Open> {
  let p = opening.get(root);
  if (!p) {
    p = open(root);
    opening.set(root, p);
    // A failed build is not remembered: the next request tries again.
    p.catch(() => opening.delete(root));
  }
  return p;
}

async function answer(req: RetrievalRequest): Promise<unknown> {
  if (req.op === 'shutdown') {
    await stopBuilds();
    const all = [...opening.values()];
    opening.clear();
    for (const p of all) (await p.catch(() => undefined))?.db.close();
    return null;
  }
  if (req.op === 'close') {
    const p = opening.get(req.root);
    opening.delete(req.root);
    if (p) (await p.catch(() => undefined))?.db.close();
    return null;
  }
  const s = await site(req.root);
  switch (req.op) {
    case 'open':
      return s.summary;
    case 'hits':
      return s.q.hits(req.query, req.scope, req.limit);
    case 'search': {
      const hits = s.q.hits(req.query, req.scope, req.limit);
      return s.q.sections(hits.map((h) => h.id)).map((section, i) => ({ ...section, score: hits[i]!.score }));
    }
    case 'sections':
      return s.q.sections(req.ids.slice(0, 1000));
    case 'range':
      return s.q.range(req.offset, req.limit);
    case 'scopeOf':
      return s.q.scopeOf(req.path);
    case 'scopeMask':
      return s.q.scopeMask(req.scope);
  }
}

parentPort!.on('message', (msg: { id: number; req: RetrievalRequest }) => {
  answer(msg.req).then(
    (value) => {
      const reply: RetrievalReply = { id: msg.id, ok: true, value };
      parentPort!.postMessage(reply, value instanceof Uint8Array ? [value.buffer as ArrayBuffer] : []);
    },
    (err: unknown) => parentPort!.postMessage({ id: msg.id, ok: false, error: (err as Error).message } satisfies RetrievalReply),
  );
});
