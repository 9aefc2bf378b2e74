/**
 * `npm run screenshots`: export the bundled example docs, serve them through the appliance's site
 * listener, and save desktop and phone screenshots of the home page, the component showcase and
 * the search results into docs/screenshots/ (committed, so the README shows the product).
 */
import path from 'node:path';
import { launchBrowser } from '../test/e2e/browser.js';
import { serveExampleSite } from '../test/e2e/served-site.js';

const out = path.resolve(import.meta.dirname, '../docs/screenshots');
const site = await serveExampleSite();
const browser = await launchBrowser();
try {
  for (const [device, viewport] of [
    ['desktop', { width: 1280, height: 860 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport, colorScheme: theme, deviceScaleFactor: device === 'phone' ? 2 : 1, isMobile: device === 'phone' });
      const page = await context.newPage();
      const shots: [string, string, ((p: typeof page) => Promise<void>)?][] = [
        ['home', '/'],
        ['components', '/guides/components'],
        [
          'search',
          '/guides/static-export',
          async (p) => {
            await p.locator('[data-search-open]').first().click();
            await p.locator('#search-input').fill('bundle');
            await p.locator('.search-result-link').first().waitFor();
            // Snippets are fetched from the result pages once typing pauses.
            await p.locator('.search-result-snippet:not(:empty)').first().waitFor({ timeout: 10_000 });
          },
        ],
      ];
      for (const [name, url, act] of shots) {
        if (theme === 'dark' && name !== 'home' && device === 'phone') continue;
        await page.goto(site.origin + url, { waitUntil: 'networkidle' });
        await act?.(page);
        const file = path.join(out, `${name}-${device}${theme === 'dark' ? '-dark' : ''}.png`);
        await page.screenshot({ path: file });
        console.log(`wrote ${path.relative(process.cwd(), file)}`);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await site.close();
}
