/**
 * MCP amplification (issue 37, finding 3): every tool call counts against the per-client limit,
 * one request carries at most MCP_MAX_CALLS calls, and one answer at most MCP_MAX_ANSWER_CHARS
 * characters of tool output, with the cut said in the text.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_MAX_ANSWER_CHARS, MCP_MAX_CALLS } from '../../app/assistant/mcp-router.js';
import { exportSite } from '../../renderer/index.js';
import { TEST_PROJECT } from '../helpers/appliance.js';
import { sharedRenderPool } from '../helpers/render-pool.js';
import { assistantRig, type AssistantRig } from './helpers.js';

type RpcReply = { id: number; result?: { content: { text: string }[]; isError?: boolean }; error?: { code: number; message: string } };

const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** A site with one page far bigger than an answer may be. */
async function bigPageBundle(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-limits-'));
  const docs = path.join(dir, 'docs');
  fs.mkdirSync(docs);
  fs.writeFileSync(path.join(docs, 'docs.json'), JSON.stringify({ theme: 'mint', name: 'Big Docs', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'huge'] } }));
  fs.writeFileSync(path.join(docs, 'index.mdx'), '---\ntitle: Home\n---\n\nWelcome to the widget documentation.\n');
  const paragraph = 'The widget appliance keeps every reading of its sensors in a ring buffer that is flushed to disk each minute. ';
  const sections = Array.from({ length: 60 }, (_, i) => `## Sensor ${i}\n\n${paragraph.repeat(60)}\n`).join('\n');
  fs.writeFileSync(path.join(docs, 'huge.mdx'), `---\ntitle: Huge\n---\n\n${sections}`);
  const zip = path.join(dir, 'site.zip');
  await exportSite({ pool: sharedRenderPool(), sourceDir: docs, outZip: zip, projectId: TEST_PROJECT, domain: 'docs.test.internal', version: 'assistant-v1' });
  return zip;
}

describe('MCP limits', () => {
  let rig: AssistantRig;
  const post = (body: unknown) =>
    fetch(`${rig.siteOrigin}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
  beforeAll(async () => {
    rig = await assistantRig({ assistant: { searchPerClientPerMinute: 2 * MCP_MAX_CALLS } }, await bigPageBundle());
  }, 180_000);
  afterAll(async () => {
    await rig?.close();
  });

  it(`refuses a request of more than ${MCP_MAX_CALLS} tool calls, before any of them runs`, async () => {
    const res = await post(Array.from({ length: MCP_MAX_CALLS + 1 }, (_, i) => call(i + 1, 'search', { query: 'sensor', pageSize: 50 })));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error).toEqual({ code: -32600, message: `${MCP_MAX_CALLS + 1} tool calls in one request; at most ${MCP_MAX_CALLS} are accepted` });
    // Refused whole: nothing was counted, so the full allowance is still there.
    expect(res.headers.get('ratelimit-remaining')).toBeNull();
  });

  it('cuts the answer of one request at its size limit and says so; later calls get an error result', async () => {
    const res = await post([call(1, 'get_page', { path: 'huge' }), call(2, 'get_page', { path: 'huge' }), call(3, 'search', { query: 'sensor ring buffer', pageSize: 50 })]);
    expect(res.status).toBe(200);
    // Each call was counted: 3 of the allowance are gone.
    expect(Number(res.headers.get('ratelimit-remaining'))).toBe(2 * MCP_MAX_CALLS - 3);
    const replies = ((await res.json()) as RpcReply[]).sort((a, b) => a.id - b.id);
    const texts = replies.map((r) => r.result!.content[0]!.text);
    const total = texts.reduce((n, t) => n + t.length, 0);
    expect(total).toBeLessThanOrEqual(MCP_MAX_ANSWER_CHARS + 500);
    expect(texts.join('')).toContain(`reached ${MCP_MAX_ANSWER_CHARS} characters`);
    expect(replies.some((r) => r.result!.isError === true)).toBe(true);
  });

  it('counts every tool call against the per-client limit: a batch that would pass it is refused', async () => {
    // 3 counted above; 2 × MAX - 3 remain. A full batch fits once, then no longer.
    const first = await post(Array.from({ length: MCP_MAX_CALLS }, (_, i) => call(i + 1, 'search', { query: 'sensor' })));
    expect(first.status).toBe(200);
    expect(Number(first.headers.get('ratelimit-remaining'))).toBe(MCP_MAX_CALLS - 3);
    const second = await post(Array.from({ length: MCP_MAX_CALLS }, (_, i) => call(i + 1, 'search', { query: 'sensor' })));
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    // What is left still serves smaller requests.
    expect((await post(call(1, 'search', { query: 'sensor' }))).status).toBe(200);
  });
});
