import { iconLibrary, iconSvg, renderIcon, type IconLibrary } from '../icons/index.js';
import type { SiteConfig } from '../types.js';
import { escapeHtml } from './escape.js';

const lookup = iconSvg;

export type LayoutIcon = (name: string | undefined, className?: string) => string;

const byLibrary = new Map<IconLibrary | undefined, LayoutIcon>();

/**
 * Draws navigation icons (tabs, anchors, groups, pages, navbar links) from the site's icon library:
 * inline SVG, a placeholder for a Font Awesome Pro name, or '' when unknown. The plan has already
 * warned about each unknown one, once for the site (renderer/icons/navigation-warnings.ts).
 */
export function layoutIcons(config: Pick<SiteConfig, 'iconLibrary'>): LayoutIcon {
  const library = iconLibrary(config.iconLibrary);
  let draw = byLibrary.get(library);
  if (!draw) {
    draw = (name, className = 'icon') => {
      if (!name) return '';
      // A config may give an image path instead of an icon name; the layout only draws named icons.
      if (name.includes('/') || name.includes('.')) return '';
      // The base `icon` class is added by the icon code itself.
      return renderIcon(name, { library, className: className.replace(/^icon\b\s*/, '') }).svg ?? '';
    };
    byLibrary.set(library, draw);
  }
  return draw;
}

/** Footer social keys (docs.json `footer.socials`) → icon name and accessible label. */
const SOCIALS: Record<string, { icon: string; label: string }> = {
  x: { icon: 'x-twitter', label: 'X' },
  twitter: { icon: 'x-twitter', label: 'X' },
  github: { icon: 'github', label: 'GitHub' },
  gitlab: { icon: 'gitlab', label: 'GitLab' },
  linkedin: { icon: 'linkedin', label: 'LinkedIn' },
  slack: { icon: 'slack', label: 'Slack' },
  discord: { icon: 'discord', label: 'Discord' },
  youtube: { icon: 'youtube', label: 'YouTube' },
  facebook: { icon: 'facebook', label: 'Facebook' },
  instagram: { icon: 'instagram', label: 'Instagram' },
  medium: { icon: 'medium', label: 'Medium' },
  telegram: { icon: 'telegram', label: 'Telegram' },
  reddit: { icon: 'reddit', label: 'Reddit' },
  mastodon: { icon: 'mastodon', label: 'Mastodon' },
  bluesky: { icon: 'bluesky', label: 'Bluesky' },
  hacker_news: { icon: 'hacker-news', label: 'Hacker News' },
  website: { icon: 'globe', label: 'Website' },
};

export function socialIcon(key: string): { svg: string; label: string } {
  const known = SOCIALS[key.toLowerCase()];
  const label = known?.label ?? key;
  const svg = (known && lookup(known.icon, { label })) || lookup('link', { label });
  return { svg: svg ?? `<span class="social-text">${escapeHtml(label)}</span>`, label };
}
