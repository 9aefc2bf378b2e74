/** The MCP server on the site listener, driven by the official SDK's own client (issue 21). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createTestAppliance } from '../helpers/appliance.js';
import { assistantRig, type AssistantRig } from './helpers.js';

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

describe('MCP server at /mcp', () => {
  let rig: AssistantRig;
  let client: Client;
  beforeAll(async () => {
    rig = await assistantRig();
    client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.siteOrigin}/mcp`)));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await rig?.close();
  });

  it('lists the read-only search and get_page tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_page', 'search']);
    for (const t of tools) expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(client.getServerVersion()?.name).toBe('Widget Docs docs');
  });

  it('search finds the section that answers, with its path and URL', async () => {
    const r = (await client.callTool({ name: 'search', arguments: { query: 'refunds processed', pageSize: 3 } })) as TextResult;
    const text = r.content[0]!.text;
    expect(text.split('\n---\n')[0]).toContain('Refunds are processed within 5 business days');
    expect(text).toContain('Path: billing');
    expect(text).toContain('URL: /billing/#refunds');
  });

  it('search stays in the default language unless asked for another', async () => {
    const en = (await client.callTool({ name: 'search', arguments: { query: 'mémoire installation' } })) as TextResult;
    expect(en.content[0]!.text).not.toContain('8 Go');
    const fr = (await client.callTool({ name: 'search', arguments: { query: 'mémoire', language: 'fr' } })) as TextResult;
    expect(fr.content[0]!.text).toContain('8 Go de mémoire');
  });

  it('get_page returns the Markdown of a page and an error result for a missing or escaping path', async () => {
    const r = (await client.callTool({ name: 'get_page', arguments: { path: 'troubleshooting' } })) as TextResult;
    expect(r.content[0]!.text.startsWith('# Troubleshooting\n')).toBe(true);
    expect(r.content[0]!.text).toContain('E4021 means the license file expired');
    for (const path of ['nope', '../manifest', '_retrieval/../../etc/passwd']) {
      const miss = (await client.callTool({ name: 'get_page', arguments: { path } })) as TextResult;
      expect(miss.isError).toBe(true);
    }
  });

  it('answers GET with 405: the server is stateless and keeps no streams', async () => {
    const res = await fetch(`${rig.siteOrigin}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    // A browser's GET is the docs site's (here: no page, so its 404), not the MCP server's.
    const page = await fetch(`${rig.siteOrigin}/mcp`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('limits requests per client per minute', async () => {
    const limited = await assistantRig({ assistant: { searchPerClientPerMinute: 2 } });
    try {
      const call = () =>
        fetch(`${limited.siteOrigin}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      const third = await call();
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  }, 120_000);
});

describe('before any site is served', () => {
  it('tells the page there is no MCP server here, and /mcp refuses with a clear 503', async () => {
    const t = createTestAppliance({ config: { site: { exampleOnFirstStart: false } } });
    await t.start();
    try {
      const status = await request(t.site).get('/_/assistant');
      expect(status.status).toBe(200);
      expect(status.body).toEqual({ enabled: false, mcp: null });
      const mcp = await request(t.site).post('/mcp').set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(mcp.status).toBe(503);
      expect(mcp.body.error.message).toBe('No documentation site is being served yet');
    } finally {
      await t.close();
    }
  });
});
