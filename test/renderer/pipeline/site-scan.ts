/**
 * Finds references a page or stylesheet makes to resources outside the bundle: scripts, styles,
 * fonts, images, media, frames. Plain `<a href>` links to other sites are fine (the visitor
 * chooses to follow them); `<link rel=canonical|alternate>` and `<meta>` load nothing either.
 */
const EXTERNAL = /^\s*(?:https?:)?\/\//i;
const LOADING_LINK_RELS = /\b(?:stylesheet|icon|preload|modulepreload|prefetch|apple-touch-icon|manifest|mask-icon)\b/i;

export function externalResourceRefs(text: string, kind: 'html' | 'css'): string[] {
  const found: string[] = [];
  const cssRefs = (css: string): void => {
    for (const m of css.matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/gi)) if (EXTERNAL.test(m[2] ?? '')) found.push(`url(${m[2]})`);
    for (const m of css.matchAll(/@import\s+(['"])([^'"]+)\1/gi)) if (EXTERNAL.test(m[2] ?? '')) found.push(`@import ${m[2]}`);
  };
  if (kind === 'css') {
    cssRefs(text);
    return found;
  }
  // Inline <style> blocks and style="" attributes are CSS too.
  for (const m of text.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) cssRefs(m[1] ?? '');
  const withoutScripts = text.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, (s) => s.slice(0, s.indexOf('>') + 1));
  for (const m of withoutScripts.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g)) {
    const tag = (m[1] ?? '').toLowerCase();
    const attrs = new Map<string, string>();
    for (const a of (m[2] ?? '').matchAll(/([^\s=>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      attrs.set((a[1] ?? '').toLowerCase(), a[2] ?? a[3] ?? a[4] ?? '');
    }
    const style = attrs.get('style');
    if (style) cssRefs(style);
    if (tag === 'a' || tag === 'meta') continue;
    if (tag === 'link' && !LOADING_LINK_RELS.test(attrs.get('rel') ?? '')) continue;
    for (const name of ['src', 'href', 'poster', 'data', 'xlink:href', 'background']) {
      const v = attrs.get(name);
      if (v !== undefined && EXTERNAL.test(v)) found.push(`<${tag} ${name}="${v}">`);
    }
    const srcset = attrs.get('srcset');
    if (srcset && srcset.split(',').some((part) => EXTERNAL.test(part))) found.push(`<${tag} srcset="${srcset}">`);
  }
  return found;
}
