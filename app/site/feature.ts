import { Router } from 'express';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';

/** The served docs site. Until a bundle is active, readers get a plain 503 page. */
export function createSiteFeature(_ctx: AppContext): Feature {
  const router = Router();
  router.use((_req, res) => {
    res.status(503).set('Retry-After', '30').type('text/plain').send('No documentation site is being served yet.\n');
  });
  return { name: 'site', siteRouter: router, ready: () => ({ ok: false, critical: false, detail: 'no bundle loaded' }) };
}
