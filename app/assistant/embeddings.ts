import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/schema.js';
import type { Logger } from '../logger.js';
import type { RetrievalSection } from '../../renderer/retrieval/types.js';

type EmbeddingsConfig = NonNullable<Config['assistant']['embeddings']>;

const REQUEST_TIMEOUT_MS = 60_000;
const QUERY_TIMEOUT_MS = 10_000;
/** Characters of a section sent to be embedded (heading and title first): models cap their input. */
const MAX_EMBED_CHARS = 2_000;

/** One request to an OpenAI-compatible `/embeddings` endpoint; unit-length vectors back, in order. */
export async function embed(texts: string[], cfg: EmbeddingsConfig, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Float32Array[]> {
  const key = cfg.apiKeyEnv ? env[cfg.apiKeyEnv] : undefined;
  const res = await fetch(cfg.baseUrl.replace(/\/+$/, '') + '/embeddings', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ model: cfg.model, input: texts }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`the embeddings endpoint answered ${res.status}`);
  const json = (await res.json()) as { data?: { index?: number; embedding?: unknown }[] };
  const data = [...(json.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  if (data.length !== texts.length) throw new Error(`the embeddings endpoint returned ${data.length} vectors for ${texts.length} inputs`);
  return data.map((d) => {
    if (!Array.isArray(d.embedding) || d.embedding.length === 0 || d.embedding.some((x) => typeof x !== 'number')) throw new Error('the embeddings endpoint returned something that is not a vector');
    const v = Float32Array.from(d.embedding as number[]);
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < v.length; i++) v[i]! /= norm;
    return v;
  });
}

export function sectionText(s: RetrievalSection): string {
  return `${s.title} — ${s.heading}\n${s.text}`.slice(0, MAX_EMBED_CHARS);
}

export interface SectionVectors {
  /** Vectors by section index, or undefined while they are being made (or when that failed). */
  ready(): Float32Array[] | undefined;
  /** The query's vector, or undefined when the endpoint does not answer in time. */
  query(text: string): Promise<Float32Array | undefined>;
}

/**
 * Section vectors of one served bundle: read from the cache file under
 * `<stateDir>/assistant/embeddings` when it is there, otherwise made in the background (batches of
 * `batchSize`) and written there; cache files of other bundles or models are removed once a new
 * one is written. Failures are logged and leave keyword ranking alone in charge.
 */
export function sectionVectors(opts: {
  stateDir: string;
  bundleKey: string;
  /** How many sections the bundle has, and a reader of them in bundle order (from the retrieval thread). */
  sectionCount: number;
  readSections: (offset: number, limit: number) => Promise<readonly RetrievalSection[]>;
  cfg: EmbeddingsConfig;
  env: NodeJS.ProcessEnv;
  log: Logger;
}): SectionVectors {
  const dir = path.join(opts.stateDir, 'assistant', 'embeddings');
  const id = crypto.createHash('sha256').update(`${opts.bundleKey}\n${opts.cfg.model}\n${opts.cfg.baseUrl}\n${opts.sectionCount}`).digest('hex').slice(0, 32);
  const file = path.join(dir, `${id}.json`);
  let vectors: Float32Array[] | undefined;
  try {
    const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as { vectors: string[] };
    if (cached.vectors.length === opts.sectionCount) vectors = cached.vectors.map((b) => new Float32Array(new Uint8Array(Buffer.from(b, 'base64')).buffer));
  } catch {
    // not cached yet
  }
  if (!vectors) {
    void (async () => {
      const out: Float32Array[] = [];
      for (let i = 0; i < opts.sectionCount; i += opts.cfg.batchSize) {
        const batch = await opts.readSections(i, opts.cfg.batchSize);
        if (batch.length === 0) break;
        out.push(...(await embed(batch.map(sectionText), opts.cfg, opts.env, REQUEST_TIMEOUT_MS)));
      }
      fs.mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ model: opts.cfg.model, vectors: out.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')) }));
      fs.renameSync(tmp, file);
      for (const other of fs.readdirSync(dir)) if (other !== path.basename(file)) fs.rmSync(path.join(dir, other), { force: true });
      vectors = out;
      opts.log.info({ sections: out.length, model: opts.cfg.model }, 'assistant: section embeddings ready');
    })().catch((err: unknown) => opts.log.warn({ err: (err as Error).message }, 'assistant: embedding the sections failed; retrieval ranks by keywords only'));
  }
  return {
    ready: () => vectors,
    async query(text) {
      try {
        return (await embed([text.slice(0, MAX_EMBED_CHARS)], opts.cfg, opts.env, QUERY_TIMEOUT_MS))[0];
      } catch (err) {
        opts.log.warn({ err: (err as Error).message }, 'assistant: embedding a query failed; keyword ranking only');
        return undefined;
      }
    },
  };
}
