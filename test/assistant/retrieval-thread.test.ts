/**
 * Derived indexes stay off the main thread (issue 37, finding 2): the section index is read and
 * ranked only in the retrieval thread, from a per-bundle FTS5 file in the state dir; "is a site
 * served?" costs nothing; a damaged index file is rebuilt; a query waits for a build only so long.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { INDEX_WAIT_MS, siteRetrieval } from '../../app/assistant/retrieval.js';
import { ApiError } from '../../app/errors.js';
import { createLogger } from '../../app/logger.js';
import { createRetrievalHost, type RetrievalHost } from '../../app/retrieval/host.js';
import { indexFileFor } from '../../app/retrieval/index-file.js';
import { sectionIndexHeader, sectionLine } from '../../renderer/retrieval/section-index.js';
import { RETRIEVAL_INDEX_PATH } from '../../renderer/retrieval/types.js';
import { assistantRig, type AssistantRig } from './helpers.js';

describe('retrieval on the served site', () => {
  let rig: AssistantRig;
  beforeAll(async () => {
    rig = await assistantRig();
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('never reads the section index on the main thread: MCP search is answered from the FTS5 file', async () => {
    const touched: string[] = [];
    const watch = (name: 'readFileSync' | 'createReadStream' | 'openSync') => {
      const real = fs[name] as (...a: unknown[]) => unknown;
      vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
        if (String(args[0]).includes('_retrieval')) touched.push(`${name} ${String(args[0])}`);
        return real.apply(fs, args);
      }) as never);
    };
    watch('readFileSync');
    watch('createReadStream');
    watch('openSync');
    const status = await fetch(`${rig.siteOrigin}/_/assistant`);
    expect(((await status.json()) as { mcp: string | null }).mcp).toBe('/mcp');
    const res = await fetch(`${rig.siteOrigin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'refunds processed', pageSize: 2 } } }),
    });
    const body = (await res.json()) as { result: { content: { text: string }[] } };
    expect(body.result.content[0]!.text).toContain('Refunds are processed within 5 business days');
    expect(touched).toEqual([]);
    const cache = path.join(rig.stateDir(), 'cache', 'retrieval');
    expect(fs.readdirSync(cache).filter((f) => f.endsWith('.sqlite'))).toHaveLength(1);
  });
});

describe('the retrieval thread', () => {
  const dirs: string[] = [];
  const hosts: RetrievalHost[] = [];
  const tmp = (prefix: string) => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  const newHost = (stateDir: string) => {
    const h = createRetrievalHost({ stateDir, log: createLogger('silent') });
    hosts.push(h);
    return h;
  };
  afterAll(async () => {
    for (const h of hosts) await h.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  function bundleRoot(): string {
    const root = tmp('retrieval-bundle-');
    fs.mkdirSync(path.join(root, '_retrieval'));
    const section = { path: 'install', url: '/install/', title: 'Install', heading: 'Volumes', text: 'Mount a data volume at /var/lib/widget before the first start.' };
    fs.writeFileSync(path.join(root, RETRIEVAL_INDEX_PATH), sectionIndexHeader('Widget Docs') + sectionLine(section));
    return root;
  }

  it('rebuilds an index file that is damaged, and a restarted appliance reopens the one it built', async () => {
    const root = bundleRoot();
    const stateDir = tmp('retrieval-state-');
    const { file } = indexFileFor(root, path.join(stateDir, 'cache', 'retrieval'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'this is not a database');
    const first = siteRetrieval(root, newHost(stateDir));
    expect((await first.search('data volume', { limit: 1 }))[0]).toMatchObject({ heading: 'Volumes', score: 1 });
    const built = fs.statSync(file);
    expect(built.size).toBeGreaterThan(1000);
    // Another process (a restart) opens the file it finds, without building again.
    const again = siteRetrieval(root, newHost(stateDir));
    expect((await again.info()).sectionCount).toBe(1);
    expect(fs.statSync(file).ino).toBe(built.ino);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('treats FTS5 syntax in a query as words, and a query of stop words finds nothing', async () => {
    const r = siteRetrieval(bundleRoot(), newHost(tmp('retrieval-state-')));
    expect((await r.search('volume NEAR( "mount" ) -first ^data:', { limit: 3 }))[0]).toMatchObject({ heading: 'Volumes' });
    expect(await r.search('how do I', { limit: 3 })).toEqual([]);
  });

  it('on a big site, ranks by the rarer words of a query: a word in most sections neither matches nor costs a pass over the index', async () => {
    const root = tmp('retrieval-big-');
    fs.mkdirSync(path.join(root, '_retrieval'));
    const lines = Array.from({ length: 1_200 }, (_, i) =>
      sectionLine({ path: `p${i}`, url: `/p${i}/`, title: `Page ${i}`, heading: 'Widget', text: i === 700 ? 'The widget refund takes five days.' : `The widget keeps reading ${i}.`, language: i % 2 ? 'en' : 'fr' }),
    );
    fs.writeFileSync(path.join(root, RETRIEVAL_INDEX_PATH), sectionIndexHeader('Big') + lines.join(''));
    const r = siteRetrieval(root, newHost(tmp('retrieval-state-')));
    // "widget" is in every section: only "refund" is ranked by; page 700 is French.
    expect((await r.search('widget refund', { limit: 10, language: 'fr' })).map((p) => p.path)).toEqual(['p700']);
    expect(await r.search('widget refund', { limit: 10, language: 'en' })).toEqual([]);
    // A query of common words alone still answers, from the rarest of them, in scope.
    const common = await r.search('widget', { limit: 5, language: 'en' });
    expect(common).toHaveLength(5);
    expect(common.every((p) => p.language === 'en')).toBe(true);
  });

  it('stops an index build it started when it closes: the build process is gone and left no file behind', async () => {
    const root = tmp('retrieval-slow-');
    fs.mkdirSync(path.join(root, '_retrieval'));
    const text = 'Volumes, ports and the data directory are set before the first start of the widget. '.repeat(8);
    const lines = Array.from({ length: 60_000 }, (_, i) => sectionLine({ path: `p${i}`, url: `/p${i}/`, title: `Page ${i}`, heading: `Heading ${i}`, text: `${text} ${i}` }));
    fs.writeFileSync(path.join(root, RETRIEVAL_INDEX_PATH), sectionIndexHeader('Slow') + lines.join(''));
    const stateDir = tmp('retrieval-state-');
    const cache = path.join(stateDir, 'cache', 'retrieval');
    const host = createRetrievalHost({ stateDir, log: createLogger('silent') });
    const search = siteRetrieval(root, host).search('widget', { limit: 1 }).catch((e: unknown) => e);
    // The builder names its temporary file after its pid.
    let pid: number | undefined;
    for (let i = 0; i < 400 && pid === undefined; i++) {
      const name = fs.existsSync(cache) ? fs.readdirSync(cache).find((f) => f.endsWith('.tmp')) : undefined;
      if (name) pid = Number(/\.sqlite\.(\d+)\./.exec(name)?.[1]);
      else await new Promise((r) => setTimeout(r, 10));
    }
    expect(pid, 'the build started').toBeGreaterThan(0);
    await host.close();
    expect(await search).toBeInstanceOf(Error);
    expect(() => process.kill(pid!, 0)).toThrow(/ESRCH/);
    expect(fs.readdirSync(cache)).toEqual([]);
  }, 60_000);

  it(`answers 503 SEARCH_INDEX_BUILDING when the index is not ready within ${INDEX_WAIT_MS / 1000} s`, async () => {
    vi.useFakeTimers();
    try {
      const never: RetrievalHost = { request: () => new Promise(() => undefined), pending: () => 1, close: async () => undefined };
      const pending = siteRetrieval('/nowhere', never).search('anything', { limit: 1 });
      const settled = pending.then(
        () => undefined,
        (e: unknown) => e,
      );
      await vi.advanceTimersByTimeAsync(INDEX_WAIT_MS + 1);
      const err = (await settled) as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 503, code: 'SEARCH_INDEX_BUILDING', headers: { 'Retry-After': '10' } });
    } finally {
      vi.useRealTimers();
    }
  });
});
