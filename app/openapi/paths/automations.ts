import { AUTOMATION_RUN_STATUSES } from '../../../data/stores/automation-runs.js';
import { authErrors, json } from '../components.js';

const rateHeaders = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};
const error = (description: string) => json({ $ref: '#/components/schemas/Error' }, description);

export const automationSchemas = {
  AutomationTriggered: {
    type: 'object',
    required: ['schemaId', 'instanceId', 'jobId'],
    additionalProperties: false,
    properties: {
      schemaId: { type: 'string', description: 'The automation (projects[].automations[].id).' },
      instanceId: { type: 'string', pattern: '^run_[0-9a-f]{20}$', description: 'The run; listed with its automation on the console project page.' },
      jobId: { type: 'string', pattern: '^aj_[0-9a-f]{20}$', description: `The agent job carrying the run out: GET /v2/agent/{projectId}/job/{jobId} follows it. Run states: ${AUTOMATION_RUN_STATUSES.join(', ')}.` },
    },
  },
};

export const automationPaths = {
  '/v1/workflow/{projectId}/{workflowSchemaId}/trigger': {
    post: {
      operationId: 'triggerAutomation',
      summary: 'Run an automation now (the hosted “Trigger automation”)',
      description:
        'Starts a run of a scheduled (`trigger.type` "schedule") or API-only ("api") automation at once: an agent job whose instruction carries what changed in the context repositories since the last completed run. Nothing changed: the job is already `completed`, with no pull request. Shares no state with the schedule: the next scheduled run starts from this one. At most 10 requests per 10 seconds per organization (docs/automations.md).',
      tags: ['automations'],
      parameters: [
        { name: 'projectId', in: 'path', required: true, description: 'The project id (24 hex characters).', schema: { type: 'string' } },
        { name: 'workflowSchemaId', in: 'path', required: true, description: 'The automation id (projects[].automations[].id).', schema: { type: 'string' } },
      ],
      responses: {
        '202': json({ $ref: '#/components/schemas/AutomationTriggered' }, 'The run started (or, nothing having changed, already ended)', rateHeaders),
        '400': error('Malformed automation id, a disabled automation, one triggered by pushes, or the agent is not configured'),
        '404': { $ref: '#/components/responses/NotFound' },
        '409': error('A run of this automation is still running'),
        '429': { $ref: '#/components/responses/TooManyRequests' },
        '502': error('A context repository could not be read; nothing was started'),
        ...authErrors,
      },
    },
  },
};
