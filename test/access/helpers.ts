import type { IncomingMessage } from 'node:http';
import type { ConfigInput } from '../../config/schema.js';
import { ANONYMOUS, wrap, type BundleAccess, type ReaderView } from '../../renderer/access/contract.js';
import type { ReaderAccess, ReaderUser } from '../../app/reader-access/types.js';
import { createTestAppliance, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { manifestFor, writeFile, zipBundle, type SiteFiles } from '../loader/helpers/bundle.js';
import { fastLoader, siteFeature } from '../site/helpers.js';

/** Marker strings only restricted content carries: they must never reach another reader. */
export const ADMIN_SECRET = 'SECRET-ADMIN-7f3a9c';
export const PARTNER_SECRET = 'SECRET-PARTNER-91c2e4';

/**
 * A ReaderAccess over an in-test table: the `reader` cookie's value names the user (a test
 * double of the interface app/reader-access implements). Only projects in `enabledFor` have auth.
 */
export function tableReaderAccess(users: Record<string, string[]>, enabledFor: string[] = [TEST_PROJECT]): ReaderAccess {
  const who = (req: IncomingMessage): string | undefined => /(?:^|;\s*)reader=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  const reader = (req: IncomingMessage, projectId: string): ReaderUser | null => {
    if (!enabledFor.includes(projectId)) return null;
    const name = who(req);
    const groups = name === undefined ? undefined : users[name];
    return groups ? { groups, content: { name }, expiresAt: null } : null;
  };
  return {
    enabled: (projectId) => enabledFor.includes(projectId),
    reader,
    view(req, projectId): ReaderView {
      const r = reader(req, projectId);
      return r ? { signedIn: true, groups: new Set(r.groups) } : ANONYMOUS;
    },
    signInUrl: (projectId, wanted) => `/login?redirect=${encodeURIComponent(wanted)}&p=${projectId}`,
  };
}

export const USERS = { alice: ['admin'], bob: ['partner'] };

const sidebar = () =>
  `<nav><a href="/">Home</a><a href="/guides/intro">Intro</a>` +
  wrap('groups:admin', `<a href="/admin/runbook">Admin runbook ${ADMIN_SECRET}-nav</a>`) +
  wrap('signed-in', `<a href="/partner">Partner guide ${PARTNER_SECRET}-nav</a>`) +
  `</nav>`;

/** A partially authenticated site as the renderer writes it with reader access on. */
export function accessSite(): { files: SiteFiles; access: BundleAccess } {
  const filler = '<p>' + 'Public words for everyone. '.repeat(60) + '</p>';
  const files: SiteFiles = {
    'index.html': `<!doctype html><title>Home</title>${sidebar()}${filler}`,
    'index.md': '# Home\n\nWelcome.\n',
    'guides/intro.html': `<!doctype html><title>Intro</title>${sidebar()}<p>Install it.</p>${filler}`,
    'guides/intro.md': '# Intro\n\nInstall it.\n',
    'admin/runbook.html': `<!doctype html><title>Runbook</title>${sidebar()}<p>${ADMIN_SECRET} restart the reactor.</p>`,
    'admin/runbook.md': `# Runbook\n\n${ADMIN_SECRET} restart the reactor.\n`,
    'partner.html': `<!doctype html><title>Partner</title>${sidebar()}<p>${PARTNER_SECRET} discounts.</p>`,
    'partner.md': `# Partner\n\n${PARTNER_SECRET} discounts.\n`,
    '_assets/images/admin.0123abcd.png': Buffer.from(`PNG ${ADMIN_SECRET} image`),
    '_static/site.3f2a9c1b.css': `body { color: #123; } ${'.x { margin: 0 } '.repeat(100)}`,
    '404.html': `<!doctype html><title>Not found</title>${sidebar()}<p>This page does not exist.</p>`,
    'llms.txt': `# Docs\n\n- [Home](/index.md)\n- [Intro](/guides/intro.md)\n${wrap('groups:admin', `- [Runbook ${ADMIN_SECRET}-llms](/admin/runbook.md)\n`)}${wrap('signed-in', `- [Partner ${PARTNER_SECRET}-llms](/partner.md)\n`)}`,
    'llms-full.txt': `# Home\n\nWelcome.\n${wrap('groups:admin', `# Runbook\n\n${ADMIN_SECRET} restart the reactor.\n`)}`,
    '_retrieval/sections.ndjson': [
      JSON.stringify({ format: 2, name: 'Access docs' }),
      JSON.stringify({ path: 'index', url: '/', title: 'Home', heading: 'Home', text: 'Welcome to the reactor documentation.' }),
      JSON.stringify({ path: 'guides/intro', url: '/guides/intro', title: 'Intro', heading: 'Intro', text: 'Install the reactor software.' }),
      JSON.stringify({ path: 'admin/runbook', url: '/admin/runbook', title: 'Runbook', heading: 'Runbook', text: `${ADMIN_SECRET} restart the reactor.` }),
      JSON.stringify({ path: 'partner', url: '/partner', title: 'Partner', heading: 'Partner', text: `${PARTNER_SECRET} reactor discounts.` }),
      '',
    ].join('\n'),
    'sitemap.xml': `<?xml version="1.0"?><urlset><url><loc>https://docs.test.internal/</loc></url>${wrap('groups:admin', `<url><loc>https://docs.test.internal/admin/runbook?${ADMIN_SECRET}</loc></url>`)}</urlset>`,
  };
  const access: BundleAccess = {
    format: 1,
    files: {
      'admin/runbook.html': 'groups:admin',
      'admin/runbook.md': 'groups:admin',
      '_assets/images/admin.0123abcd.png': 'groups:admin',
      'partner.html': 'signed-in',
      'partner.md': 'signed-in',
    },
    defaultRequirement: 'public',
    marked: ['index.html', 'guides/intro.html', 'admin/runbook.html', 'partner.html', '404.html', 'llms.txt', 'llms-full.txt', 'sitemap.xml'],
    pages: { public: 2, signedIn: 1, groups: 1 },
  };
  return { files, access };
}

/** The bundle zip of a site, its manifest carrying `access` when given. */
export function accessBundle(files: SiteFiles, access: BundleAccess | undefined, version = 'v1', manifest: Record<string, unknown> = {}): Buffer {
  return zipBundle(files, version, [], manifestFor(files, version, { ...manifest, ...(access ? { access } : {}) }));
}

/** A test appliance serving the access site as its single-site bundle. */
export async function serveAccessSite(readerAccess: ReaderAccess | undefined, site: { files: SiteFiles; access: BundleAccess | undefined; manifest?: Record<string, unknown> } = accessSite(), config: Partial<ConfigInput> = {}): Promise<TestAppliance> {
  const t = createTestAppliance({ config: { ...config, staticExport: { enabled: true, bundleUrl: 'placeholder', ...fastLoader } }, ...(readerAccess ? { readerAccess } : {}) });
  const zip = writeFile(t.stateDir, 'bundles/v1.zip', accessBundle(site.files, site.access, 'v1', site.manifest));
  await t.start();
  await siteFeature(t.features).reload({ ...t.config, staticExport: { ...t.config.staticExport, bundleUrl: zip } });
  return t;
}
