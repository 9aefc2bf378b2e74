/**
 * What a refusal was, for logs and tests: the message says it to the operator, the code names
 * the rule. Refusals that carry no code are the older, message-only ones.
 */
export type BundleErrorCode =
  | 'ENTRY_TOO_DEEP'
  | 'ENTRY_NAME_TOO_LONG'
  | 'RESERVED_VERSION'
  | 'INFLATE_RATIO'
  | 'VERIFY_TIMEOUT'
  | 'LOAD_CANCELLED'
  | 'UNSUPPORTED_SCHEME';

/**
 * A bundle that must not be served (hostile or broken archive, manifest mismatch) or a source
 * that could not be fetched. The message is for the operator: it names the archive, entry or
 * field, and is what /readyz shows as the reason.
 */
export class BundleError extends Error {
  readonly code: BundleErrorCode | undefined;
  constructor(message: string, options?: { cause?: unknown; code?: BundleErrorCode }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BundleError';
    this.code = options?.code;
  }
}

/** A download failure worth retrying (network error, timeout, 5xx); other failures are final. */
export class FetchError extends BundleError {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FetchError';
    this.retryable = retryable;
  }
}
