/**
 * docs.json `contextual` (mintlify-docs ai/contextual-menu.mdx): the page menu in the exported
 * HTML. What works inside a closed network is shown, in the config's order; what would send the
 * page out of it, or needs a hosted service, is named in a warning instead.
 */
import { describe, expect, it } from 'vitest';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';
import { PETS_31, yaml } from '../openapi/fixtures.js';

const OPTIONS = [
  'copy',
  'view',
  'chatgpt',
  'download-spec',
  'mcp',
  'devin-mcp',
  { title: 'Open in the wiki', description: 'Edit this page in the team wiki', icon: 'pen', href: 'https://wiki.corp.internal/edit?path=$path' },
  { title: 'Ask the helpdesk', description: 'With this page attached', href: { base: 'https://help.corp.internal/new', query: [{ key: 'body', value: '$page' }, { key: 'from', value: '$path' }] } },
  { title: 'Install MCP', description: 'x', href: { base: 'https://example.com', query: [{ key: 'u', value: '$mcp' }] } },
  { title: 'Sneaky', description: 'x', href: 'javascript:alert(1)' },
  { description: 'no title', href: '/x' },
];

async function exportWith(contextual: unknown): Promise<ExportResult> {
  const files = {
    'docs.json': JSON.stringify({ name: 'Ctx', theme: 'mint', navigation: { tabs: [{ tab: 'Guides', pages: ['index', 'guides/setup'] }, { tab: 'API', openapi: 'openapi.yaml' }] }, ...(contextual === undefined ? {} : { contextual }) }),
    'index.mdx': '---\ntitle: Home\n---\nWelcome.\n',
    'guides/setup.mdx': '---\ntitle: Setup\n---\n## First\n\nOne.\n\n## Second\n\nTwo.\n',
    'openapi.yaml': yaml(PETS_31),
    'schemas/new-pet.yaml': 'type: object\n',
  };
  return exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool(2) });
}

const html = (r: ExportResult, file: string): string => Buffer.from(r.files.get(file) ?? new Uint8Array()).toString('utf8');
const menuOf = (page: string): string => /<div class="contextual[^"]*"[\s\S]*?<span class="contextual-status"[^>]*><\/span><\/div>/.exec(page)?.[0] ?? '';
const titles = (menu: string): string[] => [...menu.matchAll(/<span class="contextual-title">([^<]*)<\/span>/g)].map((m) => m[1] as string);

describe('the contextual menu', () => {
  it('shows, in the config order, the options that work inside the network; the first is the button', async () => {
    const r = await exportWith({ options: OPTIONS });
    const page = html(r, 'guides/setup/index.html');
    const menu = menuOf(page);
    expect(menu).toContain('data-md="/guides/setup.md"');
    expect(titles(menu)).toEqual(['Copy page', 'View as Markdown', 'Copy MCP Server', 'Open in the wiki', 'Ask the helpdesk', 'Install MCP']);
    expect(menu).toMatch(/^<div class="contextual contextual-header"[^>]*><button type="button" class="contextual-face" data-contextual-action="copy">/);
    expect(menu).toContain('<a class="contextual-item" href="/guides/setup.md">');
    // $path is filled at export time; $page is left for the script, which fetches the Markdown.
    expect(menu).toContain('href="https://wiki.corp.internal/edit?path=/guides/setup" target="_blank" rel="noopener noreferrer"');
    expect(menu).toContain('data-contextual-action="open" data-href-template="https://help.corp.internal/new?body=$page&amp;from=%2Fguides%2Fsetup"');
    expect(menu).not.toContain('javascript:');
    // No API spec on a page that is not made from one.
    expect(menu).not.toContain('Download API spec');
    // Beside the title, in the header; the script and style load.
    expect(page).toMatch(/<div class="page-title-row"><h1 class="page-title">Setup<\/h1><div class="contextual/);
    expect(page).toMatch(/<script src="\/_static\/contextual\.[0-9a-f]{10}\.js"/);
    expect(page).toMatch(/<link rel="stylesheet" href="\/_static\/contextual\.[0-9a-f]{10}\.css"/);
    expect(r.files.has([...r.files.keys()].find((f) => /^_static\/contextual\.[0-9a-f]{10}\.js$/.test(f)) ?? 'none')).toBe(true);
  }, 60_000);

  it('offers the API spec on API pages, at its bundle path', async () => {
    const r = await exportWith({ options: ['download-spec', 'copy'] });
    const menu = menuOf(html(r, 'api-reference/pets/get-pet/index.html'));
    expect(titles(menu)).toEqual(['Download API spec', 'Copy page']);
    expect(menu).toMatch(/<a class="contextual-face" href="\/_assets\/openapi\.[0-9a-f]+\.yaml" download>/);
    // On a page without a spec the first option that applies is the button.
    expect(menuOf(html(r, 'guides/setup/index.html'))).toMatch(/^<div[^>]*><button type="button" class="contextual-face" data-contextual-action="copy">[\s\S]*Copy page<\/span><\/button><span class="contextual-status"/);
  }, 60_000);

  it('warns once for each option it leaves out, and does not report the setting as ignored', async () => {
    const r = await exportWith({ options: OPTIONS });
    const messages = r.warnings.filter((w) => w.code === 'contextual-option').map((w) => w.message);
    expect(messages).toEqual([
      'contextual option "chatgpt" is not shown: it sends the page to a service outside the network',
      'contextual option "devin-mcp" is not shown: Devin runs outside the network and cannot reach the MCP server inside it',
      'contextual option "an option without a title" is not shown: a custom option needs a title and an href',
    ]);
    expect(r.warnings.filter((w) => w.code === 'config-ignored')).toEqual([]);
  }, 60_000);

  it('writes the options that need the appliance (its MCP server, its assistant) hidden, for the page to show', async () => {
    const r = await exportWith({ options: ['copy', 'assistant', 'mcp', 'add-mcp', 'cursor', 'vscode', { title: 'Install MCP', description: 'x', href: { base: 'https://tools.corp.internal/add', query: [{ key: 'u', value: '$mcp' }] } }] });
    const menu = menuOf(html(r, 'guides/setup/index.html'));
    expect(titles(menu)).toEqual(['Copy page', 'Ask assistant', 'Copy MCP Server', 'Copy MCP install command', 'Connect to Cursor', 'Connect to VS Code', 'Install MCP']);
    // The page knows the server's name for an editor's settings; the URL is made on click from the page's origin.
    expect(menu).toMatch(/^<div class="contextual contextual-header" data-contextual data-md="\/guides\/setup\.md" data-mcp-name="ctx">/);
    expect(menu).toContain('<li hidden data-contextual-requires="assistant"><button type="button" class="contextual-item" data-contextual-action="assistant">');
    for (const action of ['mcp', 'add-mcp']) expect(menu).toContain(`<li hidden data-contextual-requires="mcp"><button type="button" class="contextual-item" data-contextual-action="${action}">`);
    // The editors' install links get their href on the page, where the server's URL is known.
    for (const editor of ['cursor', 'vscode']) expect(menu).toContain(`<li hidden data-contextual-requires="mcp"><a class="contextual-item" data-contextual-install="${editor}">`);
    expect(menu).toContain('<li hidden data-contextual-requires="mcp"><a class="contextual-item" href="https://tools.corp.internal/add?u=$mcp" target="_blank" rel="noopener noreferrer" data-contextual-action="open" data-href-template="https://tools.corp.internal/add?u=$mcp">');
    // Nothing about the appliance's host is written into the bundle.
    expect(menu).not.toMatch(/\/mcp\b/);
    expect(r.warnings.filter((w) => w.code === 'contextual-option')).toEqual([]);
    // A menu of appliance-only options is itself hidden until the page learns they are offered.
    const only = menuOf(html(await exportWith({ options: ['mcp', 'cursor'] }), 'guides/setup/index.html'));
    expect(only).toMatch(/^<div class="contextual contextual-header" hidden data-contextual-requires="mcp" data-contextual/);
    expect(only).toMatch(/<button type="button" class="contextual-face" data-contextual-action="mcp">/);
    expect(only).toContain('<a class="contextual-item" data-contextual-install="cursor">');
  }, 60_000);

  it('display "toc" puts it above the table of contents; a page without one keeps it in the header', async () => {
    const r = await exportWith({ options: ['copy', 'view'], display: 'toc' });
    const setup = html(r, 'guides/setup/index.html');
    expect(setup).toMatch(/<div class="toc-inner">\n<div class="contextual contextual-toc"/);
    expect(setup).not.toContain('page-title-row');
    const home = html(r, 'index.html');
    expect(home).toContain('<div class="page-title-row"><h1 class="page-title">Home</h1><div class="contextual contextual-toc"');
  }, 60_000);

  it('no contextual setting, or none of its options usable: no menu, no script', async () => {
    for (const contextual of [undefined, { options: ['chatgpt', 'claude'] }]) {
      const r = await exportWith(contextual);
      const page = html(r, 'guides/setup/index.html');
      expect(page).not.toContain('data-contextual');
      expect(page).not.toContain('/_static/contextual.');
      expect(page).toContain('<h1 class="page-title">Setup</h1>');
    }
  }, 60_000);
});
