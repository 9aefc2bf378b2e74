/** Why a request body could not be read, as the answer to give; undefined = a fault of ours. */
export type BodyFault =
  | { kind: 'too-large'; status: 413 }
  | { kind: 'aborted'; status: 400 }
  | { kind: 'unsupported-encoding'; status: 415 }
  | { kind: 'malformed'; status: 400; reason: string }
  | { kind: 'undecodable'; status: 400; encoding: string };

/**
 * Every way a client's body can fail body-parser, in one place for both listeners: a body that
 * does not inflate as its Content-Encoding says (gzip, deflate, br; zstd where Node has it) is the
 * client's error like a syntax error, a 400, never a 500 with a stack in the log.
 */
export function bodyFault(err: unknown, contentEncoding: string | undefined): BodyFault | undefined {
  const e = err as { type?: string; status?: number; message?: string };
  if (e.type === 'entity.too.large') return { kind: 'too-large', status: 413 };
  if (e.type === 'request.aborted') return { kind: 'aborted', status: 400 };
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return { kind: 'unsupported-encoding', status: 415 };
  if (e.type === 'entity.parse.failed') return { kind: 'malformed', status: 400, reason: e.message ?? 'unparsable' };
  // body-parser marks a failed decompression (or any other read error it blames on the body) 400.
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return { kind: 'undecodable', status: 400, encoding: (contentEncoding ?? 'identity').slice(0, 40) };
  return undefined;
}
