import type { NavSection, PageContent, PlannedPage, RenderContext, SiteConfig } from '../../../renderer/types.js';

/**
 * A two-version × two-tab site: versions v2 (current) and v1, each with "Guides" and "API"
 * tabs, plus an external tab. Small enough to read, shaped like a real plan output.
 */
export function fixtureConfig(overrides: Partial<SiteConfig> = {}): SiteConfig {
  return {
    format: 'docs.json',
    name: 'Acme Docs',
    description: 'Everything about Acme',
    logo: { light: 'logo/light.svg', dark: 'logo/dark.svg' },
    favicon: 'favicon.svg',
    colors: { primary: '#0E7490', light: '#22D3EE', dark: '#155E75' },
    appearance: { default: 'system', strict: false },
    navbar: {
      links: [{ label: 'Support', href: 'https://support.acme.test' }],
      primary: { label: 'Dashboard', href: 'https://app.acme.test' },
    },
    footer: {
      socials: { github: 'https://github.com/acme', x: 'https://x.com/acme' },
      links: [{ header: 'Company', items: [{ label: 'About', href: 'https://acme.test/about' }] }],
    },
    variables: {},
    redirects: [],
    allowUnsafeHtml: false,
    customCss: [],
    customJs: [],
    navigation: {},
    ...overrides,
  };
}

function section(version: string, tab: string, sidebar: NavSection['sidebar'], href: string): NavSection {
  return {
    id: `${version.toLowerCase()}/${tab.toLowerCase()}`,
    trail: [
      { kind: 'version', title: version },
      { kind: 'tab', title: tab, icon: tab === 'Guides' ? 'book' : 'code' },
    ],
    sidebar,
    href,
    external: false,
    hidden: false,
  };
}

export function fixtureCtx(config: SiteConfig = fixtureConfig()): RenderContext {
  const sections: NavSection[] = [
    section('v2', 'Guides', [
      {
        kind: 'group',
        title: 'Getting started',
        children: [
          { kind: 'page', slug: 'index', title: 'Introduction', icon: 'house' },
          { kind: 'page', slug: 'quickstart', title: 'Quickstart' },
          {
            kind: 'group',
            title: 'Deep dive',
            children: [
              { kind: 'page', slug: 'deep/config', title: 'Configuration' },
              { kind: 'group', title: 'Deeper', children: [{ kind: 'page', slug: 'deep/deeper/internals', title: 'Internals' }] },
            ],
          },
          { kind: 'group', title: 'Closed group', children: [{ kind: 'page', slug: 'other', title: 'Other page' }] },
        ],
      },
      { kind: 'group', title: 'Links', children: [{ kind: 'link', title: 'Status', href: 'https://status.acme.test' }] },
    ], '/'),
    section('v2', 'API', [
      { kind: 'group', title: 'Endpoints', children: [{ kind: 'page', slug: 'api/users', title: 'List users', method: 'GET' }] },
    ], '/api/users/'),
    section('v1', 'Guides', [
      { kind: 'group', title: 'Getting started', children: [{ kind: 'page', slug: 'v1/index', title: 'Introduction' }] },
    ], '/v1/'),
    section('v1', 'API', [
      { kind: 'group', title: 'Endpoints', children: [{ kind: 'page', slug: 'v1/api/users', title: 'List users', method: 'DELETE' }] },
    ], '/v1/api/users/'),
    {
      id: 'v2/blog',
      trail: [{ kind: 'version', title: 'v2' }, { kind: 'tab', title: 'Blog' }],
      sidebar: [],
      href: 'https://blog.acme.test',
      external: true,
      hidden: false,
    },
  ];
  const pageIndex: RenderContext['pageIndex'] = {
    index: { title: 'Introduction', url: '/', sectionId: 'v2/guides' },
    quickstart: { title: 'Quickstart', url: '/quickstart/', sectionId: 'v2/guides' },
    'deep/config': { title: 'Configuration', url: '/deep/config/', sectionId: 'v2/guides' },
    'deep/deeper/internals': { title: 'Internals', url: '/deep/deeper/internals/', sectionId: 'v2/guides' },
    other: { title: 'Other page', url: '/other/', sectionId: 'v2/guides' },
    'api/users': { title: 'List users', url: '/api/users/', sectionId: 'v2/api' },
    'v1/index': { title: 'Introduction', url: '/v1/', sectionId: 'v1/guides' },
    'v1/api/users': { title: 'List users', url: '/v1/api/users/', sectionId: 'v1/api' },
  };
  return {
    repoRoot: '/nonexistent',
    config,
    sections,
    globalLinks: [{ label: 'Community', href: 'https://community.acme.test' }],
    pageIndex,
    assets: {
      'logo/light.svg': '/_assets/logo/light.1111aaaa.svg',
      'logo/dark.svg': '/_assets/logo/dark.2222bbbb.svg',
      'favicon.svg': '/_assets/favicon.3333cccc.svg',
    },
    themeAssets: {
      'site.css': '/_static/site.aaaaaaaa.css',
      'site.js': '/_static/site.bbbbbbbb.js',
      'search.js': '/_static/search.cccccccc.js',
      'theme-init.js': '/_static/theme-init.dddddddd.js',
      'components.css': '/_static/components.eeeeeeee.css',
      'components.js': '/_static/components.ffffffff.js',
      'minisearch.js': '/_static/minisearch.12345678.js',
      'katex.css': '/_static/katex.23456789.css',
      'mermaid.js': '/_static/mermaid.34567890.js',
    },
  };
}

export function fixturePage(overrides: Partial<PlannedPage> = {}): PlannedPage {
  return {
    slug: 'deep/config',
    file: 'deep/config.mdx',
    outputPath: 'deep/config.html',
    sectionId: 'v2/guides',
    breadcrumbs: ['Getting started', 'Deep dive'],
    hidden: false,
    prev: 'quickstart',
    next: 'deep/deeper/internals',
    ...overrides,
  };
}

export function fixtureContent(overrides: Partial<PageContent> = {}): PageContent {
  return {
    title: 'Configuration',
    description: 'How to configure Acme',
    frontmatter: {},
    html: '<p>Body text</p><h2 id="options">Options</h2><h3 id="advanced">Advanced</h3>',
    toc: [
      { id: 'options', text: 'Options', depth: 2 },
      { id: 'advanced', text: 'Advanced', depth: 3 },
    ],
    text: 'Body text Options Advanced',
    usesMath: false,
    usesMermaid: false,
    warnings: [],
    ...overrides,
  };
}
