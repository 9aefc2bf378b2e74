/**
 * Tile (href, title, description; children are the preview) and GitHub.Repo (repo, variant).
 * Mintlify's GitHub card fetches the description, stars and forks from GitHub's API when the page
 * loads; an exported site loads nothing from outside the bundle, so the card shows the repository
 * and a link to it, without those live numbers.
 */
import { iconSvg } from '../../icons.js';
import { escapeHtml } from '../html.js';
import type { ComponentRenderer } from './call.js';

/** `owner/name`, `https://github.com/owner/name(.git)(/…)` → `owner/name`; undefined otherwise. */
export function githubRepo(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const m = /^(?:(?:https?:)?\/\/(?:www\.)?github\.com\/)?([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?(?:[/?#].*)?$/.exec(value.trim());
  return m?.[1] && m[2] ? `${m[1]}/${m[2]}` : undefined;
}

export const showcaseComponents: Record<string, ComponentRenderer> = {
  Tile: (c) => {
    const href = c.href(c.str('href'));
    const title = c.str('title');
    const description = c.str('description');
    const external = href !== undefined && /^https?:\/\//i.test(href);
    const link = href
      ? `<a class="c-tile__link" href="${escapeHtml(href)}"${external ? ' rel="noopener noreferrer"' : ''}>${title ? escapeHtml(title) : `<span class="c-sr-only">${escapeHtml(c.state.words.open)}</span>`}</a>`
      : escapeHtml(title ?? '');
    return (
      `<div class="c-tile${href ? ' c-tile--link' : ''}"><div class="c-tile__preview">${c.children('block')}</div>` +
      `<div class="c-tile__body">${title || href ? `<p class="c-tile__title">${link}</p>` : ''}` +
      (description ? `<p class="c-tile__description">${escapeHtml(description)}</p>` : '') +
      `</div></div>`
    );
  },
  'GitHub.Repo': (c) => {
    const raw = c.str('repo');
    const repo = githubRepo(raw);
    if (!repo) {
      c.warn('invalid-component', `GitHub.Repo needs repo="owner/name" or a github.com URL${raw ? ` (got "${raw}")` : ''}`);
      return '';
    }
    const [owner, name] = repo.split('/') as [string, string];
    const variant = c.str('variant') === 'flat' ? 'flat' : 'inset';
    const url = `https://github.com/${repo}`;
    return (
      `<div class="c-github c-github--${variant}"><div class="c-github__surface">${iconSvg('github', { className: 'c-github__icon' }) ?? ''}` +
      `<div class="c-github__body"><p class="c-github__name"><a class="c-github__link" href="${escapeHtml(url)}" rel="noopener noreferrer">` +
      `<span class="c-github__owner">${escapeHtml(owner)}/</span>${escapeHtml(name)}</a></p>` +
      `<p class="c-github__note">Repository on github.com</p></div></div></div>`
    );
  },
};
