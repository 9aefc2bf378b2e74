import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../e2e/browser.js';
import { browserSuite, chromium } from '../../e2e/chromium.js';
import { render } from './helpers.js';
import { clientScriptSource } from '../../../renderer/theme/assets.js';

/**
 * components.js in headless Chromium, on HTML from the page renderer: keyboard on tabs, sibling
 * <View> blocks grouped into one switcher (kept in step across the page), and a URL hash that
 * points into a hidden tab or a closed <details>. (Clicks and copy buttons are also covered by
 * the exported-site suite in test/e2e.)
 */
const clientDir = path.resolve(import.meta.dirname, '../../../renderer/assets/client');
const script = clientScriptSource('components.js');
const styles = fs.readFileSync(path.join(clientDir, 'components.css'), 'utf8');

let browser: Browser;
let server: http.Server;
let origin = '';
let body = '';
const pageErrors: string[] = [];

async function show(source: string, hash = '', lang?: string): Promise<Page> {
  const { html } = render(source, lang ? { lang } : {});
  body = `<!doctype html><html><head><link rel="stylesheet" href="/components.css"><script src="/components.js" defer></script></head><body><main>${html}</main></body></html>`;
  const page = await browser.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(`${origin}/page${hash}`, { waitUntil: 'load' });
  return page;
}

const selected = (page: Page, scope: string, nth = 0): Promise<string[]> =>
  page
    .locator(scope)
    .nth(nth)
    .locator('[role="tab"]')
    .evaluateAll((tabs) => tabs.map((t) => `${t.textContent}:${t.getAttribute('aria-selected')}`));

describe.skipIf(!chromium.path)(browserSuite('components.js in Chromium'), () => {
  beforeAll(async () => {
    // Served with the site's CSP, so the test also proves the script needs nothing inline.
    server = http.createServer((req, res) => {
      const headers = { 'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'" };
      if (req.url === '/components.js') res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(script);
      else if (req.url === '/components.css') res.writeHead(200, { ...headers, 'content-type': 'text/css' }).end(styles);
      else res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('shows a copy button\'s visible word and "Copied" in the page language, English where it carries none', async () => {
    const word = (page: Page, nth: number): Promise<string> => page.locator('.c-code__copy').nth(nth).evaluate((b) => getComputedStyle(b, '::before').content);
    for (const [lang, copy, copied] of [['en', 'Copy', 'Copied'], ['ja', 'コピー', 'コピーしました']] as const) {
      const page = await show('```js\nlet a = 1;\n```', '', lang);
      expect(await word(page, 0)).toBe(`"${copy}"`);
      await page.locator('.c-code__copy').first().evaluate((b) => b.setAttribute('data-copied', ''));
      expect(await word(page, 0)).toBe(`"${copied}"`);
      await page.close();
    }
  });

  it('draws a JSX icon with no size of its own at icon size, and one with width/height at its own', async () => {
    // A snippet's icon component is an <svg viewBox> with neither width nor height: it filled the card.
    const page = await show(
      'export const Logo = () => (<svg viewBox="0 0 256 256"><circle cx="128" cy="128" r="120" /></svg>)\n\n' +
        '<Card title="Fills" icon={<Logo />}>\nA\n</Card>\n\n' +
        '<Card title="Sized" icon={<svg width="28" height="28" viewBox="0 0 10 10"><rect width="10" height="10" /></svg>}>\nB\n</Card>',
    );
    const boxes = await page.locator('.c-card svg').evaluateAll((svgs) => svgs.map((s) => Math.round(s.getBoundingClientRect().width)));
    const named = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.c-card__icon')!).fontSize));
    expect(boxes).toEqual([Math.round(named), 28]);
    await page.close();
  });

  it('keeps stand-ins for outside images in a flex row of a phone-wide page inside the page', async () => {
    // A centred badge row of two hosted images: the stand-ins' host names (one long word) kept
    // them wider than a phone, and the row spilled off both edges.
    const page = await show(
      '<div className="badge-row">\n' +
        '  <a href="https://apps.example.com/app"><img src="https://upload.wikimedia.org/a/Download_on_the_App_Store_Badge.svg" alt="Download on the App Store" /></a>\n' +
        '  <a href="https://play.example.com/app"><img src="https://upload.wikimedia.org/b/Google_Play_Store_badge_EN.svg" alt="Get it on Google Play" /></a>\n' +
        '</div>',
    );
    await page.setViewportSize({ width: 390, height: 800 });
    // The page writes the row as `style={{ display: 'flex', … }}`; the harness's CSP drops style
    // attributes, so the same style is set here.
    await page.evaluate(() => {
      const main = document.querySelector('main')!;
      Object.assign(main.style, { width: '350px', margin: '0 20px' });
      Object.assign((main.querySelector('div') as HTMLElement).style, { display: 'flex', justifyContent: 'center', gap: '20px' });
    });
    const main = await page.locator('main').evaluate((m) => m.getBoundingClientRect().toJSON() as DOMRect);
    const boxes = await page.locator('.c-outside').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
    expect(boxes).toHaveLength(2);
    for (const box of boxes) {
      expect(box.left).toBeGreaterThanOrEqual(main.left);
      expect(box.right).toBeLessThanOrEqual(main.right);
    }
    await page.close();
  });

  it('moves between tabs with the arrow keys, Home and End, and shows only the chosen panel', async () => {
    const page = await show('<Tabs>\n<Tab title="One">\nfirst\n</Tab>\n<Tab title="Two">\nsecond\n</Tab>\n<Tab title="Three">\nthird\n</Tab>\n</Tabs>');
    await page.locator('[role="tab"]').first().focus();
    await page.keyboard.press('ArrowRight');
    expect(await selected(page, '.c-tabs')).toEqual(['One:false', 'Two:true', 'Three:false']);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Two');
    expect(await page.getByText('second').isVisible()).toBe(true);
    expect(await page.getByText('first').isVisible()).toBe(false);
    await page.keyboard.press('End');
    expect(await selected(page, '.c-tabs')).toEqual(['One:false', 'Two:false', 'Three:true']);
    await page.keyboard.press('ArrowRight');
    expect(await selected(page, '.c-tabs')).toEqual(['One:true', 'Two:false', 'Three:false']);
    await page.keyboard.press('ArrowLeft');
    expect(await selected(page, '.c-tabs')).toEqual(['One:false', 'Two:false', 'Three:true']);
    expect(await page.locator('[role="tab"][tabindex="0"]').count()).toBe(1);
    await page.close();
  });

  it('groups sibling views into one switcher and keeps switchers with the same titles in step', async () => {
    const page = await show(
      '<View title="Python">\npython one\n</View>\n<View title="JavaScript">\njs one\n</View>\n\nBetween.\n\n<View title="Python">\npython two\n</View>\n<View title="JavaScript">\njs two\n</View>',
    );
    expect(await page.locator('.c-views').count()).toBe(2);
    expect(await selected(page, '.c-views', 0)).toEqual(['Python:true', 'JavaScript:false']);
    expect(await page.getByText('js one').isVisible()).toBe(false);
    await page.locator('.c-views').first().locator('[role="tab"]', { hasText: 'JavaScript' }).click();
    expect(await page.getByText('js one').isVisible()).toBe(true);
    expect(await page.getByText('js two').isVisible()).toBe(true);
    expect(await page.getByText('python two').isVisible()).toBe(false);
    await page.close();
  });

  it('opens the tab and the <details> that hold the element named by the URL hash', async () => {
    const source = '<Tabs>\n<Tab title="A">\na\n</Tab>\n<Tab title="B">\n<Accordion title="More">\n## Deep heading\n</Accordion>\n</Tab>\n</Tabs>';
    const loaded = await show(source, '#deep-heading');
    expect(await selected(loaded, '.c-tabs')).toEqual(['A:false', 'B:true']);
    expect(await loaded.locator('#deep-heading').isVisible()).toBe(true);
    await loaded.close();

    const later = await show(source);
    expect(await later.locator('#deep-heading').isVisible()).toBe(false);
    await later.evaluate(() => {
      location.hash = '#deep-heading';
    });
    await later.waitForFunction(() => document.querySelector('details.c-accordion')?.hasAttribute('open'));
    expect(await selected(later, '.c-tabs')).toEqual(['A:false', 'B:true']);
    await later.close();
  });

  it('lands a generated field\'s second, Mintlify-named anchor below the sticky header, opening what holds it', async () => {
    const filler = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const source = `${filler}\n\n<Expandable title="properties">\n<ParamField body="meta" mintAnchor="body-meta" type="object">\nWords.\n</ParamField>\n</Expandable>\n\n${filler}`;
    const page = await show(source, '#body-meta');
    expect(await page.locator('#body-meta').isVisible()).toBe(true);
    // scroll-margin-top: --header-h (4rem by default) + 1rem, as a field's own param-… id gets.
    const top = await page.locator('#body-meta').evaluate((a) => a.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(72);
    expect(top).toBeLessThan(120);
    await page.close();
  });

  it('raised no script error', () => {
    expect(pageErrors).toEqual([]);
  });
});
