import { chromium as playwright, type Browser } from 'playwright-core';
import { chromium } from './chromium.js';

/**
 * Flags this closed network needs: without the background-networking ones Chromium keeps
 * trying to reach Google's services. Playwright gives every launch a fresh profile.
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath = chromium.path;
  // Suites skip themselves without Chromium (browserSuite); reaching here without one is a bug.
  if (!executablePath) throw new Error(`launchBrowser() called without Chromium: ${chromium.skipReason}`);
  return playwright.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-default-apps', ...extraArgs],
  });
}
