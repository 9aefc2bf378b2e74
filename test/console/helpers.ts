import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import type { Express } from 'express';
import type { PublishFeature } from '../../app/publish/feature.js';
import type { PublishRecord, PublishService } from '../../app/publish/index.js';
import type { TestAppliance } from '../helpers/appliance.js';

/** The `_csrf` value of the first form on a page. */
export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no form with a _csrf field on the page');
  return m[1]!;
}

/**
 * The action of the form whose button is named `label` (its aria-label, else its text: the name a
 * screen reader and Playwright's getByRole use), or undefined when the page shows no such button.
 */
export function formAction(html: string, label: string): string | undefined {
  for (const m of html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/gs)) {
    const button = /<button([^>]*)>([^<]*)<\/button>/.exec(m[2]!);
    const name = button && (/aria-label="([^"]*)"/.exec(button[1]!)?.[1] ?? button[2]!.trim());
    if (name === label) return m[1]!.replaceAll('&amp;', '&');
  }
  return undefined;
}

/** The appliance's own publish service (what the console's adapter wraps). */
export const publishServiceOf = (t: Pick<TestAppliance, 'features'>): PublishService => (t.features.find((f) => f.name === 'publish') as PublishFeature).service;

/**
 * A browser stand-in for the console: keeps cookies (supertest agent), reads each page's CSRF
 * token and sends it with forms as the pages do.
 */
export function consoleClient(app: Express) {
  const agent = supertest.agent(app);
  let csrf = '';
  return {
    agent,
    get csrf() {
      return csrf;
    },
    async signIn(key: string) {
      const page = await agent.get('/console/sign-in');
      return agent.post('/console/sign-in').type('form').send({ _csrf: csrfOf(page.text), key });
    },
    /** GET a page; remembers its form token. */
    async page(url: string) {
      const res = await agent.get(url);
      const m = /name="_csrf" value="([^"]+)"/.exec(res.text ?? '');
      if (m) csrf = m[1]!;
      return res;
    },
    post(url: string, fields: Record<string, string | string[]> = {}) {
      return agent.post(url).type('form').send({ _csrf: csrf, ...fields });
    },
    /** Load `url` and press the button named `label` (fails when the page does not show it). */
    async press(url: string, label: string) {
      const page = await this.page(url);
      const action = formAction(page.text, label);
      if (!action) throw new Error(`${url} shows no button "${label}"`);
      return this.post(action);
    },
  };
}

/**
 * Press "Publish now" on the project page (the publish service's real lane: export, verification,
 * activation) and wait until it has ended; the record as the service keeps it.
 */
export async function publishFromConsole(c: ReturnType<typeof consoleClient>, t: Pick<TestAppliance, 'features'>, projectPage: string): Promise<PublishRecord> {
  const res = await c.press(projectPage, 'Publish now');
  if (res.status !== 303) throw new Error(`Publish now answered ${res.status}: ${res.text}`);
  const service = publishServiceOf(t);
  await service.idle();
  const projectId = projectPage.split('/').pop()!;
  return service.history(projectId, 1)[0]!;
}

/** A config file over the test appliance's state dir, for running the CLI beside it. */
export function cliConfigFor(a: TestAppliance): string {
  const file = path.join(a.stateDir, 'cli-config.json');
  fs.writeFileSync(file, JSON.stringify({ stateDir: a.stateDir, organizations: a.config.organizations, projects: a.config.projects }));
  return file;
}
