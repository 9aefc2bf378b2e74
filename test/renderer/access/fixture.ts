import { tempSite } from '../load/site-fixtures.js';

/** A one-pixel PNG, varied by its last byte so two images hash apart. */
const png = (n: number): string => `\x89PNG\r\n\x1a\n-fixture-${n}`;

/**
 * The reader-access fixture: public pages (through a public navigation group, nested, and their
 * own frontmatter), signed-in pages, group pages, an OpenAPI spec with `x-mint.groups`, and two
 * images, one only an admin page uses and one shared with a public page. Every restricted page
 * carries a unique word in its title and body: the leak checks look for these.
 */
export const RESTRICTED_MARKERS = ['memberzqx', 'adminqjw', 'partnervkr', 'resetadminwpl', 'membertitlezqx', 'admintitleqjw', 'partnertitlevkr'];
export const PUBLIC_MARKERS = ['intropublicabc', 'nestedpublicdef', 'ownpublicghi', 'statuspublicjkl'];

export function accessSite(): string {
  const spec = {
    openapi: '3.1.0',
    info: { title: 'Fixture API', version: '1' },
    paths: {
      '/status': { get: { summary: 'Get status', description: 'statuspublicjkl words', responses: { '200': { description: 'OK' } } } },
      '/admin/reset': { post: { summary: 'Reset everything', description: 'resetadminwpl words', 'x-mint': { groups: ['admin'] }, responses: { '204': { description: 'Done' } } } },
    },
  };
  return tempSite({
    'docs.json': JSON.stringify({
      name: 'Access Fixture',
      navigation: {
        groups: [
          { group: 'Start', public: true, pages: ['intro', { group: 'Nested', pages: ['nested-page', 'partner-page'] }] },
          { group: 'Guides', pages: ['member-guide', 'own-public'] },
          { group: 'Admin', pages: ['admin-guide'] },
          { group: 'API', public: true, openapi: 'openapi.json' },
        ],
      },
    }),
    'openapi.json': JSON.stringify(spec),
    'images/shared.png': png(1),
    'images/admin.png': png(2),
    'intro.mdx': '---\ntitle: Intro\n---\n\nintropublicabc words.\n\n![Shared](/images/shared.png)\n',
    'nested-page.mdx': '---\ntitle: Nested\n---\n\nnestedpublicdef words.\n',
    // In a public group, but its own groups win.
    'partner-page.mdx': '---\ntitle: Partner partnertitlevkr\ngroups: ["partners"]\n---\n\npartnervkr words.\n',
    'member-guide.mdx': '---\ntitle: Member membertitlezqx\n---\n\nmemberzqx words.\n',
    'own-public.mdx': '---\ntitle: Own public\npublic: true\n---\n\nownpublicghi words.\n',
    'admin-guide.mdx': '---\ntitle: Admin admintitleqjw\ngroups:\n  - admin\n---\n\nadminqjw words.\n\n![Admin](/images/admin.png)\n\n![Shared](/images/shared.png)\n',
  });
}
