import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import type { Express } from 'express';
import type { TestAppliance } from '../helpers/appliance.js';

/** The `_csrf` value of the first form on a page. */
export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no form with a _csrf field on the page');
  return m[1]!;
}

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
  };
}

/** A config file over the test appliance's state dir, for running the CLI beside it. */
export function cliConfigFor(a: TestAppliance): string {
  const file = path.join(a.stateDir, 'cli-config.json');
  fs.writeFileSync(file, JSON.stringify({ stateDir: a.stateDir, organizations: a.config.organizations, projects: a.config.projects }));
  return file;
}
