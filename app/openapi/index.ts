import { components } from './components.js';
import { agentPaths, agentSchemas } from './paths/agent.js';
import { automationPaths, automationSchemas } from './paths/automations.js';
import { analyticsPaths, analyticsSchemas } from './paths/analytics.js';
import { readerAnalyticsPaths, readerAnalyticsSchemas } from './paths/reader-analytics.js';
import { assistantPaths, assistantSchemas } from './paths/assistant.js';
import { discoveryPaths, discoverySchemas } from './paths/discovery.js';
import { staticExportPaths, staticExportSchemas } from './paths/static-export.js';
import { publishPaths, publishSchemas } from './paths/publish.js';
import { systemPaths, systemSchemas } from './paths/system.js';

/**
 * The admin API as an OpenAPI 3.1 document, assembled from one module per area. The integration
 * tests validate every response they receive against it, so extending a path here is what makes
 * its responses checked.
 */
export function buildOpenApiDocument(publicUrl?: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'docs-appliance admin API',
      version: '2.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'The administrative API of a hosted documentation platform (agent jobs, search analytics, static export), served inside networks with no outbound access. Error bodies are `{error}`, and `{error, details}` under /v1/analytics.',
    },
    servers: [{ url: publicUrl ?? '/' }],
    security: [{ adminKey: [] }],
    paths: { ...systemPaths, ...agentPaths, ...analyticsPaths, ...readerAnalyticsPaths, ...staticExportPaths, ...publishPaths, ...automationPaths, ...assistantPaths, ...discoveryPaths },
    components: {
      ...components,
      schemas: { ...components.schemas, ...systemSchemas, ...agentSchemas, ...analyticsSchemas, ...readerAnalyticsSchemas, ...staticExportSchemas, ...publishSchemas, ...automationSchemas, ...assistantSchemas, ...discoverySchemas },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
