import { isbot } from 'isbot';
import { AI_AGENT_TOKENS } from './ai-agents.js';

export type Traffic = 'human' | 'ai' | 'bot';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A token counts only as a whole word of the user agent ("GPTBot/1.1", "compatible; ClaudeBot"),
// so "Devin" does not match "Devinci" and "omgili" not "omgilibot" twice.
const AI_RE = new RegExp(`(?:^|[^A-Za-z0-9_-])(?:${[...AI_AGENT_TOKENS].sort((a, b) => b.length - a.length).map(escape).join('|')})(?:$|[^A-Za-z0-9_-])`, 'i');

const cache = new Map<string, Traffic>();
const CACHE_MAX = 10_000;

/**
 * Who sent a request, by its user agent: an AI crawler or agent (the ai.robots.txt list), another
 * bot (the `isbot` package: search engines, monitors, scripts, headless browsers) or a person.
 * An empty user agent is a bot. Cached per user-agent string (bounded): a busy site sees few.
 */
export function classifyUserAgent(ua: string | undefined): Traffic {
  if (!ua) return 'bot';
  const hit = cache.get(ua);
  if (hit) return hit;
  const t: Traffic = AI_RE.test(ua) ? 'ai' : isbot(ua) ? 'bot' : 'human';
  if (cache.size >= CACHE_MAX) cache.clear();
  if (ua.length <= 512) cache.set(ua, t);
  return t;
}
