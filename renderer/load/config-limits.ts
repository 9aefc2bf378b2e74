/** The root config and each `$ref`d fragment, read whole: far above any real one (the largest in the corpora, pipecat-docs, is 104 KB). */
export const MAX_CONFIG_BYTES = 8 * 1024 * 1024;
