/**
 * The web editor's screenshots for `npm run screenshots:console` (scripts/console-screenshots.ts):
 * a started appliance whose test project is published from a bare Git repository, signed in with
 * a key; source mode with the live preview, visual mode, the save-conflict dialog, in light and
 * dark on a desktop, and source and visual at tablet width. Written to docs/screenshots/.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { systemClock } from '../app/clock.js';
import { createTestAppliance, TEST_ORG, TEST_PROJECT } from '../test/helpers/appliance.js';
import { createDocsRepo } from '../test/publish/helpers.js';

const QUICKSTART = `---
title: "Quickstart"
description: "Install the appliance and publish your first page."
---

Get the docs appliance running inside your network in a few minutes.

<Note>
  The appliance makes no outbound connection: everything it serves is built in.
</Note>

## Install

<Steps>
  <Step title="Load the image">
    Copy the image to a host and load it with \`docker load\`.
  </Step>
  <Step title="Start it">
    Run the container with a state volume and your configuration file.
  </Step>
</Steps>

<Tabs>
  <Tab title="Docker">
    \`\`\`bash
    docker run -v docs-state:/state docs-appliance
    \`\`\`
  </Tab>
  <Tab title="Helm">
    \`\`\`bash
    helm install docs ./chart
    \`\`\`
  </Tab>
</Tabs>

## Next

<CardGroup cols={2}>
  <Card title="Write pages" icon="pen" href="/guides/intro">
    Edit in the browser, in source or visual mode.
  </Card>
  <Card title="Publish" icon="rocket" href="/index">
    Merge a branch and publish it.
  </Card>
</CardGroup>

<AccordionGroup>
  <Accordion title="Which browsers are supported?">
    Current Chromium, Firefox and Safari.
  </Accordion>
</AccordionGroup>
`;

async function waitFor(page: Page, pred: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; !(await pred()); i++) {
    if (i > 300) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function captureEditor(browser: Browser, out: string): Promise<void> {
  const repo = createDocsRepo();
  repo.commit({ 'docs/quickstart.mdx': QUICKSTART }, 'Add the quickstart');
  const t = createTestAppliance({
    clock: systemClock,
    config: {
      renderer: { threads: 1 },
      projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: 'docs.test.internal', repository: repo.bare, branch: 'main', publish: { source: 'git', docsPath: 'docs' } }],
    },
  });
  await t.start();
  const server = http.createServer(t.admin);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = t.createKey(TEST_ORG);
  const editor = `${origin}/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/editor?branch=main&path=quickstart.mdx`;
  const shot = async (page: Page, name: string) => {
    const file = path.join(out, `${name}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  };
  try {
    for (const [device, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['tablet', { width: 820, height: 1180 }],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        if (device === 'tablet' && theme === 'dark') continue;
        const suffix = `${device}${theme === 'dark' ? '-dark' : ''}`;
        const context = await browser.newContext({ viewport, colorScheme: theme, deviceScaleFactor: 1 });
        const page = await context.newPage();
        await page.goto(`${origin}/console/sign-in`);
        await page.getByLabel('Admin key').fill(key);
        await page.getByRole('button', { name: 'Sign in with key' }).click();
        await page.waitForURL(`${origin}/console/orgs/${TEST_ORG}`);
        await page.goto(editor);
        await page.frameLocator('#preview').getByText('Get the docs appliance running').waitFor({ timeout: 30_000 });
        await shot(page, `editor-source-${suffix}`);

        await page.getByRole('button', { name: 'Visual', exact: true }).click();
        // Clicked at its bottom right: End then reaches the paragraph's end, not a wrapped line's.
        const intro = page.locator('.visual-content p', { hasText: 'Get the docs appliance running' });
        const box = (await intro.boundingBox())!;
        await intro.click({ position: { x: box.width - 4, y: box.height - 6 } });
        await page.keyboard.press('End');
        await page.keyboard.type(' No internet needed.');
        await page.frameLocator('#preview').getByText('No internet needed.').waitFor({ timeout: 10_000 });
        await page.locator('.visual-content h2', { hasText: 'Install' }).click();
        await shot(page, `editor-visual-${suffix}`);

        if (device === 'desktop') {
          // Someone else commits the same page meanwhile: the save opens the conflict dialog.
          const head = repo.head();
          repo.commit({ 'docs/quickstart.mdx': QUICKSTART.replace('in a few minutes', 'in minutes') }, 'Tighten the intro');
          await waitFor(page, async () => repo.head() !== head, 'the other commit');
          await page.getByRole('button', { name: 'Save (unsaved changes)' }).click();
          await page.locator('#dialog-conflict').waitFor({ state: 'visible', timeout: 20_000 });
          await shot(page, `editor-conflict-${suffix}`);
          await page.keyboard.press('Escape');
          repo.commit({ 'docs/quickstart.mdx': QUICKSTART }, 'Restore the intro');
        }
        await context.close();
      }
    }
  } finally {
    await new Promise((r) => server.close(r));
    server.closeAllConnections();
    await t.close();
    repo.remove();
  }
}
