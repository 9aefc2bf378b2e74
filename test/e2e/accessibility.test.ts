/**
 * Accessibility of the exported site (issue 39, class 12): axe-core's WCAG 2.1 A and AA rules on
 * the home page, a component page and an API page of the example docs, in light and dark, with
 * no violation.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleDocsDir } from '../../app/paths.js';
import { exportSite } from '../../renderer/index.js';
import { sharedRenderPool } from '../helpers/render-pool.js';
import { pythonStaticServer, type StaticServer } from '../helpers/static-server.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PAGES = ['/', '/guides/components/', '/api-reference/agent/create-job/'];

interface Violation {
  id: string;
  impact: string | null;
  nodes: { target: string[]; failureSummary?: string }[];
}

let server: StaticServer;
let browser: Browser;

async function violations(p: string, theme: 'light' | 'dark'): Promise<string[]> {
  // bypassCSP: the page's own policy would refuse the injected axe script (the site's scripts are unaffected).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: theme, bypassCSP: true });
  await context.addInitScript((t) => window.localStorage.setItem('docs-theme', t), theme);
  const page = await context.newPage();
  const res = await page.goto(server.origin + p, { waitUntil: 'networkidle' });
  expect(res?.status(), p).toBe(200);
  expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe(theme);
  await page.addScriptTag({ content: AXE_SOURCE });
  const found = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })).violations;
  })) as Violation[];
  await context.close();
  return found.flatMap((v) => v.nodes.map((n) => `${theme} ${p} ${v.id} (${v.impact}): ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
}

describe.skipIf(!chromium.path)(browserSuite('accessibility of the exported site (axe-core, WCAG 2.1 AA)'), () => {
  beforeAll(async () => {
    const outDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-a11y-')), 'site');
    await exportSite({ pool: sharedRenderPool(), sourceDir: exampleDocsDir(), outDir, domain: 'docs.test.internal', version: 'a11y' });
    server = await pythonStaticServer(outDir);
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`has no violation on the home, a component and an API page, ${theme}`, async () => {
      const all: string[] = [];
      for (const p of PAGES) all.push(...(await violations(p, theme)));
      expect(all).toEqual([]);
    }, 60_000);
  }
});
