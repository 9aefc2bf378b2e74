import crypto from 'node:crypto';

/** How long a rendered preview's asset links work (a preview is re-rendered on every pause in typing). */
const TOKEN_TTL_MS = 60 * 60_000;

/**
 * Capabilities for a preview's assets. The preview frame is sandboxed without allow-same-origin
 * (the repository's scripts must not reach the editor page, its CSRF token or its API), so its
 * requests carry no console cookie: each rendered preview names its assets under a token that
 * grants reading that project's branch, and nothing else, for an hour. The key lives in memory
 * only; after a restart the editor's next preview issues new links.
 */
export function createPreviewTokens(now: () => number = Date.now) {
  const key = crypto.randomBytes(32);
  const mac = (body: string) => crypto.createHmac('sha256', key).update(body).digest('base64url');
  return {
    issue(projectId: string, branch: string): string {
      const body = Buffer.from(JSON.stringify({ p: projectId, b: branch, e: now() + TOKEN_TTL_MS })).toString('base64url');
      return `${body}.${mac(body)}`;
    },
    /** The project and branch a token grants, or undefined (forged, altered, expired, malformed). */
    verify(token: string): { projectId: string; branch: string } | undefined {
      const dot = token.indexOf('.');
      if (dot <= 0 || token.length > 2048) return undefined;
      const body = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1));
      const expected = Buffer.from(mac(body));
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
      try {
        const v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p?: unknown; b?: unknown; e?: unknown };
        if (typeof v.p !== 'string' || typeof v.b !== 'string' || typeof v.e !== 'number' || v.e < now()) return undefined;
        return { projectId: v.p, branch: v.b };
      } catch {
        return undefined;
      }
    },
  };
}

export type PreviewTokens = ReturnType<typeof createPreviewTokens>;
