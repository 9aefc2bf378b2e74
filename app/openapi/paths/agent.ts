import { authErrors, json } from '../components.js';

const projectId = { name: 'projectId', in: 'path', required: true, description: 'The project id (24 hex characters).', schema: { type: 'string' } };
const jobId = { name: 'id', in: 'path', required: true, description: 'The agent job id.', schema: { type: 'string' } };

export const agentSchemas = {
  AgentJob: {
    type: 'object',
    required: ['id', 'status', 'source', 'model', 'prLink', 'createdAt', 'archivedAt'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      status: { enum: ['active', 'completed', 'archived', 'failed'] },
      source: {
        type: 'object',
        required: ['repository', 'ref'],
        additionalProperties: false,
        properties: { repository: { type: 'string' }, ref: { type: ['string', 'null'] } },
      },
      model: { type: 'string' },
      prLink: { type: ['string', 'null'], format: 'uri' },
      createdAt: { type: 'string', format: 'date-time' },
      archivedAt: { type: ['string', 'null'], format: 'date-time' },
    },
  },
};

export const agentPaths = {
  '/v2/agent/{projectId}/job/{id}': {
    get: {
      summary: 'Get an agent job (meant to be polled)',
      tags: ['agent'],
      parameters: [projectId, jobId],
      responses: {
        '200': json({ $ref: '#/components/schemas/AgentJob' }, 'The job'),
        ...authErrors,
        '404': { $ref: '#/components/responses/NotFound' },
      },
    },
  },
};
