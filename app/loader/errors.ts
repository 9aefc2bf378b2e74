/**
 * A bundle that must not be served (hostile or broken archive, manifest mismatch) or a source
 * that could not be fetched. The message is for the operator: it names the archive, entry or
 * field, and is what /readyz shows as the reason.
 */
export class BundleError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BundleError';
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
