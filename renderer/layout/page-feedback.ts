import type { SiteConfig } from '../types.js';
import { THEME_ASSET_NAMES } from '../theme/assets.js';
import { template } from './templates.js';
import type { ChromeStrings } from '../i18n/chrome-strings.js';

/**
 * The options a reader may pick after a vote. The corpus does not list Mintlify's; these are the
 * ones its hosted widget offers (docs/analytics.md, "Page feedback": a decision, not a copy of a
 * documented list).
 */
export const REASONS_UP = ['The guide worked as expected', 'It was easy to find the information I needed', 'It was easy to understand the product and features', 'The documentation is up to date', 'Something else'];
export const REASONS_DOWN = ['Get started guide did not work', 'Could not find what I was looking for', 'Hard to understand', 'Update this documentation', 'Something else'];

/** The page-view and feedback scripts and the feedback control, as the config's switches allow. */
export function pageFeedbackParts(config: SiteConfig, asset: (name: string) => string): { scripts: { src: string }[]; styles: string[]; html: (strings: ChromeStrings) => string } {
  const s = config.readerAnalytics ?? { pageViews: true, thumbs: true, code: true };
  if (!s.pageViews) return { scripts: [], styles: [], html: () => '' };
  const scripts = [{ src: asset(THEME_ASSET_NAMES.pageViewJs) }];
  if (!s.thumbs && !s.code) return { scripts, styles: [], html: () => '' };
  scripts.push({ src: asset(THEME_ASSET_NAMES.feedbackJs) });
  return { scripts, styles: [asset(THEME_ASSET_NAMES.feedbackCss)], html: (strings) => template('page-feedback')({ t: strings, thumbs: s.thumbs, code: s.code, reasonsUp: REASONS_UP, reasonsDown: REASONS_DOWN }) };
}
