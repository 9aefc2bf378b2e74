import { exportSite } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

/**
 * One API page per navigation language (`<code>/<slug>`), all generated from one operation of
 * `spec`, exported together: what a schema shared by pages in several languages renders as on each.
 * Returns a reader of the export's files by path.
 */
export async function renderApiPageInLanguages(spec: object, operation: string, slug: string, title: string, codes: string[]): Promise<(p: string) => string> {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: 'x', navigation: { languages: codes.map((c) => ({ language: c, pages: [`${c}/${slug}`] })) } }),
    'openapi.json': JSON.stringify(spec),
  };
  for (const c of codes) files[`${c}/${slug}.mdx`] = `---\ntitle: ${title}\nopenapi: "openapi.json ${operation}"\n---\n`;
  const result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
  return (p) => new TextDecoder().decode(result.files.get(p));
}
