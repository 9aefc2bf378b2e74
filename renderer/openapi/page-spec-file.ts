import type { ApiPageData } from './types.js';

/** The spec file an API page is made from (an OpenAPI or, for a channel, an AsyncAPI document). */
export function pageSpecFile(api: ApiPageData | undefined): string | undefined {
  if (api?.kind === 'operation') return api.operation.specFile;
  if (api?.kind === 'schema') return api.schema.specFile;
  return api?.channel.specFile;
}
