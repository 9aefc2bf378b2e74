/** What the exported site collects for reader analytics (issue 20, docs/analytics.md). */
export interface ReaderAnalyticsSettings {
  /** The page-view beacon (page-view.js); without it the feedback control never shows either. */
  pageViews: boolean;
  /** "Was this page helpful?" at the bottom of pages. */
  thumbs: boolean;
  /** The feedback button on code blocks. */
  code: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Mintlify's switches. docs.json: `integrations.telemetry.enabled: false` turns collection off,
 * feedback included ("When false, feedback features are also disabled"); otherwise everything is
 * on (the hosted add-on toggles live in its dashboard, not in docs.json). Legacy mint.json:
 * feedback was opt-in with `feedback.thumbsRating: true`; page views are always collected and
 * there is no code-snippet setting, so it stays off.
 */
export function readerAnalyticsSettings(raw: Record<string, unknown>, configFile: 'docs.json' | 'mint.json'): ReaderAnalyticsSettings {
  if (configFile === 'mint.json') {
    const thumbs = isObject(raw.feedback) && raw.feedback.thumbsRating === true;
    return { pageViews: true, thumbs, code: false };
  }
  const integrations = isObject(raw.integrations) ? raw.integrations : {};
  const telemetry = isObject(integrations.telemetry) ? integrations.telemetry : {};
  const on = telemetry.enabled !== false;
  return { pageViews: on, thumbs: on, code: on };
}
