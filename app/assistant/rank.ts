import type { SectionVectors } from './embeddings.js';
import type { Passage, Scope, SiteRetrieval } from './retrieval.js';

/** A section joins the candidates on meaning alone only at this cosine similarity or above. */
export const MIN_SEMANTIC_SIMILARITY = 0.5;
/** Keyword candidates considered beside the vectors' ones. */
const KEYWORD_CANDIDATES = 200;

/**
 * Passages for a query: keyword (BM25, in the retrieval thread) ranking, and, when the bundle's
 * section vectors are ready, meaning too: each candidate scores half its relative keyword score
 * and half its cosine similarity relative to the best one. Without vectors (none configured, not
 * made yet, the endpoint down) this is keyword ranking alone.
 */
export async function rankPassages(retrieval: SiteRetrieval, vectors: SectionVectors | undefined, query: string, opts: Scope & { limit: number }): Promise<Passage[]> {
  const ready = vectors?.ready();
  if (!vectors || !ready || ready.length !== (await retrieval.info()).sectionCount) return retrieval.search(query, opts);
  const q = await vectors.query(query);
  if (!q) return retrieval.search(query, opts);
  const [hits, mask] = await Promise.all([retrieval.keywordHits(query, opts, KEYWORD_CANDIDATES), retrieval.scopeMask(opts)]);
  const keyword = new Map(hits.map((h) => [h.id, h.score]));
  const cosine = new Map<number, number>();
  for (let id = 0; id < ready.length; id++) {
    if (!mask[id]) continue;
    const v = ready[id]!;
    if (v.length !== q.length) continue;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += v[i]! * q[i]!;
    cosine.set(id, dot);
  }
  let best = 0;
  for (const c of cosine.values()) if (c > best) best = c;
  best ||= 1;
  const candidates = new Set<number>(keyword.keys());
  for (const [id, c] of cosine) if (c >= MIN_SEMANTIC_SIMILARITY) candidates.add(id);
  const scored = [...candidates].map((id) => ({ id, score: 0.5 * (keyword.get(id) ?? 0) + 0.5 * Math.max(0, (cosine.get(id) ?? 0) / best) }));
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  const top = scored[0]?.score || 1;
  const chosen = scored.slice(0, opts.limit);
  const sections = await retrieval.sections(chosen.map((s) => s.id));
  return sections.map((s, i) => ({ ...s, score: Math.round((chosen[i]!.score / top) * 1000) / 1000 }));
}
