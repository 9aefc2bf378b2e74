import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../renderer/index.js';
import { TEST_PROJECT } from '../helpers/appliance.js';
import { sharedRenderPool } from '../helpers/render-pool.js';
import { pythonStaticServer, type StaticServer } from '../helpers/static-server.js';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { assistantRig, type AssistantRig } from '../assistant/helpers.js';
import { startFakeModel } from '../assistant/fake-model.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

/**
 * The page menu (docs.json `contextual`) in Chromium, on an export served by a plain static server
 * over http: "Copy page" puts the
 * page's Markdown on the clipboard, "View as Markdown" opens it, and a link with `$page` carries it;
 * the options that need the appliance stay hidden there. Served by the appliance, they show and
 * name its own MCP server and assistant.
 */
let server: StaticServer;
let browser: Browser;
let context: BrowserContext;
let helpdesk: Recorder;

/** A service inside the network that a custom option links to: records the URLs it is asked for. */
interface Recorder {
  url: string;
  received: string[];
  close(): Promise<void>;
}

async function recorder(pathPrefix: string): Promise<Recorder> {
  const received: string[] = [];
  const srv = http.createServer((req, res) => {
    if (req.url?.startsWith(pathPrefix)) received.push(req.url);
    res.end('ok');
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}${pathPrefix}`, received, close: () => new Promise<void>((r) => srv.close(() => r())) };
}

describe.skipIf(!chromium.path)(browserSuite('the contextual menu in Chromium'), () => {
  beforeAll(async () => {
    helpdesk = await recorder('/new');
    const helpdeskUrl = helpdesk.url;
    const files = {
      'docs.json': JSON.stringify({
        name: 'Ctx',
        theme: 'mint',
        navigation: { pages: ['index', 'setup'] },
        contextual: { options: ['copy', 'view', 'mcp', 'assistant', { title: 'Ask the helpdesk', description: 'With this page', href: { base: helpdeskUrl, query: [{ key: 'body', value: '$page' }] } }] },
      }),
      'index.mdx': '---\ntitle: Home\n---\nWelcome.\n',
      'setup.mdx': '---\ntitle: Setup\ndescription: Install it.\n---\nRun `make install` — then *relax*.\n',
    };
    const outDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-contextual-e2e-')), 'site');
    await exportSite({ pool: sharedRenderPool(), sourceDir: tempSite(files), outDir });
    server = await pythonStaticServer(outDir);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await helpdesk?.close();
  });

  const expected = '# Setup\n\n> Install it.\n\nRun `make install` — then *relax*.\n';

  it.each([
    ['through the Clipboard API', false],
    // Sites inside a network are often plain http on an internal name: no Clipboard API there.
    ['outside a secure context, through a selected text area', true],
  ])('copies the page as Markdown %s, says so, and closes the list', async (_how, insecure) => {
    const page = await context.newPage();
    if (insecure) await page.addInitScript(() => Object.defineProperty(window, 'isSecureContext', { value: false }));
    await page.goto(`${server.origin}/setup/`, { waitUntil: 'networkidle' });
    expect(await page.evaluate(() => window.isSecureContext)).toBe(!insecure);
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.click('.contextual-more > summary');
    expect(await page.locator('.contextual-list').isVisible()).toBe(true);
    await page.click('.contextual-list [data-contextual-action="copy"]');
    await page.waitForFunction(() => document.querySelector('[data-contextual-label]')?.textContent === 'Copied');
    expect(await page.locator('.contextual-list').isVisible()).toBe(false);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
    // The label comes back.
    await page.waitForFunction(() => document.querySelector('[data-contextual-label]')?.textContent === 'Copy page', undefined, { timeout: 5000 });
    await page.close();
  });

  it('keeps the options that need the appliance hidden on a static host', async () => {
    const page = await context.newPage();
    const status = page.waitForResponse((r) => r.url().endsWith('/_/assistant'));
    await page.goto(`${server.origin}/setup/`, { waitUntil: 'networkidle' });
    // The bundle's stand-in answers (renderer/write/appliance-stand-ins.ts): no appliance here, and no failed request.
    const answer = await status;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({ appliance: false, enabled: false });
    await page.click('.contextual-more > summary');
    expect(await page.locator('.contextual-list li').evaluateAll((lis) => lis.map((li) => [li.querySelector('.contextual-title')?.textContent, (li as HTMLElement).hidden]))).toEqual([
      ['Copy page', false],
      ['View as Markdown', false],
      ['Copy MCP Server', true],
      ['Ask assistant', true],
      ['Ask the helpdesk', false],
    ]);
    await page.close();
  });

  it('"View as Markdown" opens the page\'s Markdown; a $page link carries it to the service', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/setup/`, { waitUntil: 'networkidle' });
    await page.click('.contextual-more > summary');
    await page.click('.contextual-list a[href="/setup.md"]');
    await page.waitForURL(`${server.origin}/setup.md`);
    expect(await page.evaluate(() => document.body.innerText)).toContain('Run `make install`');
    await page.goBack({ waitUntil: 'networkidle' });
    await page.click('.contextual-more > summary');
    const popup = page.waitForEvent('popup');
    await page.click('.contextual-list [data-contextual-action="open"]');
    const opened = await popup;
    await opened.waitForLoadState();
    await expect.poll(() => helpdesk.received.length).toBe(1);
    expect(new URL(helpdesk.received[0]!, 'http://x').searchParams.get('body')).toBe(expected);
    // Escape closes the list.
    await page.click('.contextual-more > summary');
    await page.keyboard.press('Escape');
    expect(await page.locator('.contextual-list').isVisible()).toBe(false);
    await page.close();
  });
});

describe.skipIf(!chromium.path)(browserSuite('the contextual menu served by the appliance'), () => {
  let rig: AssistantRig;
  let model: Awaited<ReturnType<typeof startFakeModel>>;
  let tools: Recorder;
  let ctxBrowser: Browser;
  let ctx: BrowserContext;

  beforeAll(async () => {
    // A tool inside the network that a custom option hands the MCP server's URL to.
    tools = await recorder('/add');
    const toolsUrl = tools.url;
    const files = {
      'docs.json': JSON.stringify({
        name: 'Acme Docs',
        theme: 'mint',
        navigation: { pages: ['index', 'setup'] },
        contextual: { options: ['mcp', 'copy', 'add-mcp', 'cursor', 'vscode', 'assistant', { title: 'Add to our tools', description: 'x', href: { base: toolsUrl, query: [{ key: 'u', value: '$mcp' }] } }] },
      }),
      'index.mdx': '---\ntitle: Home\n---\nWelcome.\n',
      'setup.mdx': '---\ntitle: Setup\n---\nRun `make install`.\n',
    };
    const zip = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-contextual-appliance-')), 'site.zip');
    // Pinned like the assistant's fixture bundle, which the rig's config expects.
    await exportSite({ pool: sharedRenderPool(), sourceDir: tempSite(files), outZip: zip, projectId: TEST_PROJECT, version: 'assistant-v1' });
    model = await startFakeModel();
    rig = await assistantRig({ assistant: { baseUrl: model.url, model: 'm' } }, zip);
    ctxBrowser = await launchBrowser();
    ctx = await ctxBrowser.newContext({ viewport: { width: 1280, height: 900 } });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: rig.siteOrigin });
  }, 120_000);

  afterAll(async () => {
    await ctxBrowser?.close();
    await rig?.close();
    await model?.close();
    await tools?.close();
  });

  it('offers the appliance\'s own MCP server, by the host the reader came in by, and its assistant', async () => {
    const page = await ctx.newPage();
    await page.goto(`${rig.siteOrigin}/setup/`, { waitUntil: 'networkidle' });
    // Shown once the appliance's status has come (inside the closed list: attached, not yet visible).
    await page.waitForSelector('li[data-contextual-requires="mcp"]:not([hidden])', { state: 'attached' });
    expect(await page.locator('.contextual-list li[hidden]').count()).toBe(0);
    const mcpUrl = `${rig.siteOrigin}/mcp`;
    // The first option of the config is the face again, as on the hosted page (the page was
    // written with "Copy page" there, the first one every host can offer).
    await expect.poll(() => page.textContent('.contextual-face')).toBe('Copy MCP Server');
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.click('.contextual-face');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(mcpUrl);

    const copy = async (action: string): Promise<string> => {
      await page.evaluate(() => navigator.clipboard.writeText('before'));
      await page.click('.contextual-more > summary');
      await page.click(`.contextual-list [data-contextual-action="${action}"]`);
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).not.toBe('before');
      return page.evaluate(() => navigator.clipboard.readText());
    };
    expect(await copy('mcp')).toBe(mcpUrl);
    expect(await copy('add-mcp')).toBe(`npx add-mcp ${mcpUrl}`);

    // The copied URL is a live MCP server.
    const listed = await page.evaluate(async (url) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
      return { status: res.status, body: await res.text() };
    }, mcpUrl);
    expect(listed.status).toBe(200);
    expect(listed.body).toContain('get_page');

    // The editors' own URL schemes, no web redirect outside the network.
    const cursor = new URL((await page.getAttribute('[data-contextual-install="cursor"]', 'href')) as string);
    expect(`${cursor.protocol}//${cursor.host}${cursor.pathname}`).toBe('cursor://anysphere.cursor-deeplink/mcp/install');
    expect(cursor.searchParams.get('name')).toBe('acme-docs');
    expect(JSON.parse(Buffer.from(cursor.searchParams.get('config') as string, 'base64').toString('utf8'))).toEqual({ url: mcpUrl });
    const vscode = (await page.getAttribute('[data-contextual-install="vscode"]', 'href')) as string;
    expect(vscode.startsWith('vscode:mcp/install?')).toBe(true);
    expect(JSON.parse(decodeURIComponent(vscode.slice('vscode:mcp/install?'.length)))).toEqual({ name: 'acme-docs', type: 'http', url: mcpUrl });

    // `$mcp` in a custom link is the same URL.
    await page.click('.contextual-more > summary');
    const popup = page.waitForEvent('popup');
    await page.click('.contextual-list [data-contextual-action="open"]');
    await (await popup).waitForLoadState();
    await expect.poll(() => tools.received.length).toBe(1);
    expect(new URL(tools.received[0]!, 'http://x').searchParams.get('u')).toBe(mcpUrl);

    // "Ask assistant" opens the assistant's panel, ready for a question.
    await page.click('.contextual-more > summary');
    await page.click('.contextual-list [data-contextual-action="assistant"]');
    await page.waitForSelector('#assistant-panel[open]');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('assistant-input');
    await page.close();
  });
});
