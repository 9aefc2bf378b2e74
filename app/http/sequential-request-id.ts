import crypto from 'node:crypto';

/** 2^48: the last group of a UUID holds 12 hex digits. */
const NODE_SPAN = 2 ** 48;

/**
 * Request ids for the site listener's cache hits, shaped like `crypto.randomUUID()` (version 4,
 * RFC 4122 variant) but made from a random prefix drawn once and a counter in the last group, so
 * minting one is a string concatenation instead of a random draw and its formatting per request
 * (the cache-hit path is a lookup and a write; the profile showed randomUUID among its costs).
 * Unique within the process (a new prefix every 2^48 ids) and, by the 74 random bits of the
 * prefix, across processes; not unpredictable, which a request id need not be (it only
 * correlates a reader's report with the logs).
 */
export function sequentialRequestIds(): () => string {
  let prefix = '';
  let counter = NODE_SPAN;
  return () => {
    if (counter >= NODE_SPAN) {
      // randomUUID's first four groups: random, with the version and variant digits in place.
      prefix = crypto.randomUUID().slice(0, 24);
      counter = crypto.randomInt(0, 2 ** 32);
    }
    return prefix + (counter++).toString(16).padStart(12, '0');
  };
}
