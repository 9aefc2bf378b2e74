/**
 * Navbar entries of `type: "github"` or `"discord"` need no label in Mintlify, which fills one
 * in from the service's API (a repository's star count, a server's online count). The exporter
 * has no network, and the config loader keeps the URL as the label of a link without one; here
 * such a link gets the GitHub icon and `owner/name` (or the Discord icon and "Discord") instead
 * of the raw URL.
 */
import { githubRepo } from '../page/components/showcase.js';
import type { NavLink } from '../types.js';

export function labelledNavLink(link: NavLink): NavLink {
  if (link.label !== link.href) return link;
  let url: URL;
  try {
    url = new URL(link.href);
  } catch {
    return link;
  }
  const host = url.hostname.replace(/^www\./, '');
  if (host === 'github.com') {
    const owner = url.pathname.split('/').filter(Boolean)[0];
    const label = githubRepo(link.href) ?? owner;
    return label ? { ...link, label, icon: link.icon ?? 'github' } : link;
  }
  if (host === 'discord.gg' || host === 'discord.com') return { ...link, label: 'Discord', icon: link.icon ?? 'discord' };
  return link;
}
