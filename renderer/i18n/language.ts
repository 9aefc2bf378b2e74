import type { NavSection } from '../types.js';

/** `<html lang>` and the chrome's language: a language division titled with a language tag (`fr`, `pt-BR`) sets it. */
export function languageOf(section: NavSection | undefined): string {
  const step = section?.trail.find((t) => t.kind === 'language');
  return step && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(step.title) ? step.title : 'en';
}
