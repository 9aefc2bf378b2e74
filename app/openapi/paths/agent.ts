import { authErrors, bodyErrors, json } from '../components.js';

const projectId = { name: 'projectId', in: 'path', required: true, description: 'The project id (24 hex characters).', schema: { type: 'string' } };
const jobId = { name: 'id', in: 'path', required: true, description: 'The agent job id.', schema: { type: 'string' } };

export const agentSchemas = {
  AgentJob: {
    type: 'object',
    required: ['id', 'status', 'source', 'model', 'prLink', 'createdAt', 'archivedAt'],
    additionalProperties: false,
    // The state rules of DESIGN 3.2, so every response the tests see is checked against them.
    allOf: [
      {
        if: { properties: { status: { const: 'archived' } } },
        then: { properties: { archivedAt: { type: 'string' } } },
        else: { properties: { archivedAt: { type: 'null' } } },
      },
      { if: { properties: { status: { const: 'active' } } }, then: { properties: { prLink: { type: 'null' } } } },
    ],
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
      prLink: { type: ['string', 'null'], format: 'uri', description: 'Null while active and when no file changed.' },
      createdAt: { type: 'string', format: 'date-time' },
      archivedAt: { type: ['string', 'null'], format: 'date-time', description: 'Set exactly when the status is archived.' },
    },
  },
};

const rateLimitHeaders = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

const promptBody = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['prompt'],
        properties: { prompt: { type: 'string', minLength: 1, maxLength: 100000, description: 'The instruction for the agent (not only whitespace).' } },
      },
    },
  },
};

export const agentPaths = {
  '/v2/agent/{projectId}/job': {
    post: {
      summary: 'Create an agent job',
      description:
        'Queues the instruction for the agent runner, which edits the project repository on a new branch (`source.ref`) with the configured model and opens a pull request. Answers 400 when the agent is not configured (agent.baseUrl, agent.model, projects[].repository, projects[].gitHost). Create and message share `agent.rateLimitPerHour` uses per project per hour. At most `agent.maxActiveJobsPerOrg` (default 10) jobs of one organization and `agent.maxActiveJobs` (default 50) in all are active (queued or running); past either, 429 with Retry-After and nothing is created.',
      tags: ['agent'],
      parameters: [projectId],
      requestBody: promptBody,
      responses: {
        '201': json({ $ref: '#/components/schemas/AgentJob' }, 'The job, `active`', rateLimitHeaders),
        ...bodyErrors,
        ...authErrors,
        '404': { $ref: '#/components/responses/NotFound' },
        '429': { $ref: '#/components/responses/TooManyRequests' },
      },
    },
  },
  '/v2/agent/{projectId}/job/{id}/message': {
    post: {
      summary: 'Send a follow-up instruction to an agent job',
      description:
        'Continues the same conversation and branch; the existing pull request is updated by the push. The job is `active` again (a job still running takes the message up when its current instruction ends). 409 for an archived job, and for a job whose stored conversation with this prompt would pass `agent.maxTranscriptBytes` (start a new job). Making a finished job active again needs a place under `agent.maxActiveJobsPerOrg` / `agent.maxActiveJobs` (429 with Retry-After otherwise); a message to an active job does not.',
      tags: ['agent'],
      parameters: [projectId, jobId],
      requestBody: promptBody,
      responses: {
        '200': json({ $ref: '#/components/schemas/AgentJob' }, 'The job, `active`', rateLimitHeaders),
        ...bodyErrors,
        ...authErrors,
        '404': { $ref: '#/components/responses/NotFound' },
        '409': { $ref: '#/components/responses/Conflict' },
        '429': { $ref: '#/components/responses/TooManyRequests' },
      },
    },
  },
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
