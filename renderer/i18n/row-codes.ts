/**
 * The languages the chrome has words for: one row each in chrome-strings.ts, layout-strings.ts,
 * client-strings.ts and playground-strings.ts (the type makes a missing row a compile error).
 * Mintlify's other codes (`cn`, `jp`, `pt-BR`, ...) are aliases of these (chrome-strings.ts).
 */
export const ROW_CODES = ['en', 'ar', 'ca', 'cs', 'da', 'de', 'es', 'fi', 'fr', 'he', 'hi', 'hu', 'id', 'it', 'ja', 'ko', 'lv', 'nl', 'no', 'pl', 'pt', 'ro', 'ru', 'sv', 'tr', 'uk', 'uz', 'vi', 'zh-Hans', 'zh-Hant'] as const;

export type RowCode = (typeof ROW_CODES)[number];
