import { iconSvg } from '../icons.js';
import { escapeHtml } from './escape.js';

const lookup = iconSvg;

/** Inline SVG for a Font Awesome / Lucide style icon name, or '' when unknown. */
export function icon(name: string | undefined, className = 'icon'): string {
  if (!name) return '';
  // A config may give an image path instead of an icon name; the layout only draws named icons.
  if (name.includes('/') || name.includes('.')) return '';
  // iconSvg adds the base `icon` class itself.
  return lookup(name, { className: className.replace(/^icon\b\s*/, '') }) ?? '';
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
