/**
 * Requests per client address per minute for the beacon endpoint. In memory on purpose: a
 * restart forgetting a minute of counts is harmless here, and a SQLite write per beacon would
 * cost more than the beacon itself. Fixed one-minute windows.
 */
export function createClientLimiter(perMinute: () => number, now: () => number) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    /** Count `weight` requests (an MCP request's tool calls, say) for the client, all or none. */
    hit(client: string, weight = 1): { allowed: boolean; limit: number; remaining: number; resetSeconds: number } {
      const t = now();
      const limit = perMinute();
      let w = windows.get(client);
      if (!w || t - w.start >= 60_000) {
        if (windows.size >= 100_000) for (const [k, v] of windows) if (t - v.start >= 60_000) windows.delete(k);
        w = { start: t, count: 0 };
        windows.set(client, w);
      }
      const resetSeconds = Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000));
      if (w.count + weight > limit) return { allowed: false, limit, remaining: Math.max(0, limit - w.count), resetSeconds };
      w.count += weight;
      return { allowed: true, limit, remaining: limit - w.count, resetSeconds };
    },
  };
}
