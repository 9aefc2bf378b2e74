/**
 * Parameters a security scheme already sends. Public specs often list the API key header (or
 * `Authorization`) as a parameter as well as a security scheme. The request examples and the
 * playground then sent it twice over, and the parameter's `<string>` replaced the scheme's
 * `<api-key>` in every example. Mintlify leaves such header inputs out of generated code examples
 * (its changelog, November 2025). The page's own parameter list keeps them: their descriptions
 * document them.
 */
import type { ApiParameter, ApiSecurity } from './types.js';

const usesAuthorization = (kind: ApiSecurity['schemes'][number]['kind']): boolean =>
  kind === 'bearer' || kind === 'basic' || kind === 'http' || kind === 'oauth2' || kind === 'openIdConnect';

/** Whether `p` is sent by one of `alternatives` (header names compare without case, as HTTP does). */
export function sentBySecurity(p: ApiParameter, alternatives: readonly ApiSecurity[]): boolean {
  if (p.in === 'path') return false;
  const name = p.in === 'header' ? p.name.toLowerCase() : p.name;
  for (const alt of alternatives) {
    for (const s of alt.schemes) {
      if (s.kind === 'apiKey' && s.param !== undefined && (s.in ?? 'header') === p.in && (p.in === 'header' ? s.param.toLowerCase() : s.param) === name) return true;
      if (p.in === 'header' && name === 'authorization' && usesAuthorization(s.kind)) return true;
    }
  }
  return false;
}
