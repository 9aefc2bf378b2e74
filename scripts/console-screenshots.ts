/**
 * `npm run screenshots:console`: a started test appliance with seeded analytics, an agent job and
 * one finished export; screenshots of the console's pages (desktop, phone, dark) and of the web
 * editor (scripts/editor-screenshots.ts) into docs/screenshots/ (committed, so the README,
 * docs/console.md and docs/editor.md show them).
 */
import path from 'node:path';
import { launchBrowser } from '../test/e2e/browser.js';
import { serveConsole } from '../test/e2e/console-app.js';
import { captureEditor } from './editor-screenshots.js';
import { TEST_ORG, TEST_PROJECT } from '../test/helpers/appliance.js';
import type { StaticExportFeature } from '../app/static-export/feature.js';

const out = path.resolve(import.meta.dirname, '../docs/screenshots');
const app = await serveConsole();
const browser = await launchBrowser();
try {
  const exp = app.t.features.find((f) => f.name === 'static-export') as StaticExportFeature;
  const job = app.t.ctx.stores.exportJobs.create({ id: 'se_0123456789abcdef', orgId: TEST_ORG, projectId: TEST_PROJECT, domain: 'docs.test.internal' });
  exp.queue.poke();
  for (let i = 0; app.t.ctx.stores.exportJobs.get(job.id)!.status !== 'completed'; i++) {
    if (i > 1200) throw new Error('export did not finish');
    await new Promise((r) => setTimeout(r, 100));
  }
  const base = `/console/orgs/${TEST_ORG}`;
  const shots: [string, string][] = [
    ['console-overview', base],
    ['console-project', `${base}/projects/${TEST_PROJECT}`],
    ['console-keys', `${base}/keys`],
    ['console-analytics', `${base}/projects/${TEST_PROJECT}/analytics?days=30`],
  ];
  for (const [device, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport, colorScheme: theme, deviceScaleFactor: device === 'phone' ? 2 : 1, isMobile: device === 'phone' });
      const page = await context.newPage();
      await page.goto(`${app.origin}/console/sign-in`);
      await page.getByLabel('Admin key').fill(app.key);
      await page.getByRole('button', { name: 'Sign in with key' }).click();
      await page.waitForURL(`${app.origin}${base}`);
      for (const [name, url] of shots) {
        // Phones: the two pages an operator checks on the move.
        if (device === 'phone' && name !== 'console-overview' && name !== 'console-analytics') continue;
        await page.goto(app.origin + url, { waitUntil: 'networkidle' });
        const file = path.join(out, `${name}-${device}${theme === 'dark' ? '-dark' : ''}.png`);
        await page.screenshot({ path: file, fullPage: device === 'desktop' && name === 'console-analytics' });
        console.log(`wrote ${path.relative(process.cwd(), file)}`);
      }
      await context.close();
    }
  }
  await captureEditor(browser, out);
} finally {
  await browser.close();
  await app.close();
}
