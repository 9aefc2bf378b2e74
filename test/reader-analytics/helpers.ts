import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import type { ConfigInput } from '../../config/schema.js';
import { manualClock } from '../../app/clock.js';
import type { ReaderAnalyticsFeature } from '../../app/reader-analytics/feature.js';
import { postEvents, serveProject, SITE_HOST } from '../analytics/helpers.js';

export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
export const GPTBOT_UA = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
export const CLAUDE_UA = 'Claude-User (claude-code/2.0; +https://support.anthropic.com/)';
export const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export function readersOf(t: TestAppliance): ReaderAnalyticsFeature {
  return t.features.find((f) => f.name === 'reader-analytics') as ReaderAnalyticsFeature;
}

/** A test appliance behind a trusted proxy (so X-Forwarded-For names the reader), serving a small site. */
export function readerAppliance(opened: TestAppliance[], config: Partial<ConfigInput> = {}, start = '2026-11-10T09:00:00.000Z', stateDir?: string) {
  const clock = manualClock(start);
  const app = createTestAppliance({ config: { admin: { trustProxy: true }, analytics: { rateLimitPerHour: 1000 }, ...config }, clock, ...(stateDir ? { stateDir } : {}) });
  opened.push(app);
  serveProject(app);
  const dir = path.join(app.stateDir, 'served', 'aaaaaaaaaaaaaaaaaaaaaaaa');
  fs.mkdirSync(path.join(dir, 'guides'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'guides', 'install.html'), '<h1>Install</h1>');
  fs.writeFileSync(path.join(dir, 'guides', 'install.md'), '# Install\n');
  serveProject(app);
  return { app, clock };
}

let viewSeq = 0;
/** One page-view beacon as a reader's browser sends it. */
export function view(app: TestAppliance, pathName: string, reader: { ip: string; ua?: string }) {
  return postEvents(app, { type: 'pageview', path: pathName, viewId: `v${++viewSeq}` }, { ip: reader.ip }).set('User-Agent', reader.ua ?? BROWSER_UA);
}

/** A page request of the served site, as a crawler or agent makes it. */
export function fetchPage(app: TestAppliance, pathName: string, ua: string, ip: string) {
  return supertest(app.site).get(pathName).set('Host', SITE_HOST).set('User-Agent', ua).set('X-Forwarded-For', ip);
}
