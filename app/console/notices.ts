/** What a page says after a change it redirected from (`?notice=<key>`). */
export const NOTICES = {
  'signed-out': 'You are signed out.',
  'key-revoked': 'The key is revoked. Sessions signed in with it have ended.',
  'export-started': 'Export started.',
  'job-archived': 'The agent job is archived.',
  'publish-started': 'Publish started.',
  'rolled-back': 'Roll-back started.',
  'automation-started': 'Automation run started.',
  'reader-session-revoked': 'The reader session is revoked: that reader is signed out.',
} as const;

export type Notice = keyof typeof NOTICES;

/** `path` with its notice: a key that is not in NOTICES fails the type check instead of showing nothing. */
export const withNotice = (path: string, notice: Notice): string => `${path}?notice=${notice}`;

/** The text of a `?notice=` value, if it names one. */
export const noticeText = (value: unknown): string | null => (typeof value === 'string' && Object.hasOwn(NOTICES, value) ? NOTICES[value as Notice] : null);
