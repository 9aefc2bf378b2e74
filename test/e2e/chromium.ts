import fs from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * Where Chromium is, or why the browser suites are skipped: the one detection every browser suite
 * (and vitest.config.ts's notice) uses. `CHROMIUM_PATH=/path` picks a binary; `CHROMIUM_PATH=none`
 * forces the skip, to check the no-Chromium path on a machine that has one. CI installs Chromium,
 * so the suites run there.
 */
export function detectChromium(env: NodeJS.ProcessEnv = process.env): { path: string; skipReason?: undefined } | { path?: undefined; skipReason: string } {
  const forced = env.CHROMIUM_PATH;
  if (forced === 'none') return { skipReason: 'CHROMIUM_PATH=none' };
  if (forced) return fs.existsSync(forced) ? { path: forced } : { skipReason: `CHROMIUM_PATH=${forced} does not exist` };
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  return found ? { path: found } : { skipReason: `Chromium not installed (looked for ${CANDIDATES.join(', ')}; apt-get install chromium, or set CHROMIUM_PATH)` };
}

export const chromium = detectChromium();

/**
 * A browser suite's title, carrying the reason when it is skipped (vitest lists skipped suites by
 * title); the reason is also printed once per file.
 */
export function browserSuite(title: string): string {
  if (!chromium.skipReason) return title;
  console.warn(`skipped "${title}": ${chromium.skipReason}`);
  return `${title} [skipped: ${chromium.skipReason}]`;
}
