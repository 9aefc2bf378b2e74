import { AGENT_JOB_STATUSES } from '../../../data/stores/agent-jobs.js';
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
      status: { enum: [...AGENT_JOB_STATUSES] },
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

const sessionV1 = {
  type: 'object',
  required: ['sessionId', 'subdomain', 'branch', 'haulted', 'haultReason', 'todos', 'createdAt'],
  additionalProperties: false,
  properties: {
    sessionId: { type: 'string', description: 'The job id (the same job through v1 and v2).' },
    subdomain: { type: 'string', description: 'The project id.' },
    branch: { type: ['string', 'null'], description: 'The branch the agent works on.' },
    haulted: { type: 'boolean', description: 'True once the job left `active` (the published spelling).' },
    haultReason: { enum: ['completed', 'error', 'processing'], description: '`processing` while active, `error` when the last instruction failed, else `completed`.' },
    pullRequestLink: { type: 'string', format: 'uri', description: 'Once the job is no longer active and a pull request exists.' },
    messageToUser: { type: 'string', description: "Once the job is no longer active: the model's summary, or why it failed." },
    todos: { type: 'array', maxItems: 0, items: {}, description: 'Always empty: the agent keeps no to-do list.' },
    title: { type: 'string', description: 'The first instruction on one line (jobs stored before the v1 operations existed have none).' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

const v1Messages = {
  type: 'array',
  minItems: 1,
  maxItems: 100,
  description:
    'The instruction: `user` messages (at least one not empty), `assistant` messages (kept as the caller\'s examples) and `system` messages (kept as the caller\'s context after them; they never replace the appliance\'s own instructions). At most 100,000 characters in all.',
  items: {
    type: 'object',
    required: ['role', 'content'],
    properties: { role: { enum: ['system', 'user', 'assistant'] }, content: { type: 'string' } },
  },
};

export const agentPaths = {
  '/v1/agent/{projectId}/job': {
    post: {
      operationId: 'createAgentJobV1',
      deprecated: true,
      summary: 'Create an agent job (v1): the job as an event stream',
      description:
        'Deprecated: use POST /v2/agent/{projectId}/job. Queues a job as v2 does and answers with a Server-Sent Events stream (the AI SDK UI message stream protocol, for `useChat`) following it until it leaves `active`: steps with the model\'s text and tool calls, then the result and `data: [DONE]`. `branch` names the branch (default: one named after the instruction); `asDraft` opens the pull request as a draft; `model` (`sonnet`, `opus`) runs the configured model (agent.model). Closing the stream does not stop the job. 409 when another active job works on the same branch.',
      tags: ['agent'],
      parameters: [projectId],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['messages'],
              properties: {
                branch: { type: 'string', minLength: 1, maxLength: 200, description: 'A valid Git branch name other than the base branch.' },
                messages: v1Messages,
                asDraft: { type: 'boolean', default: false },
                model: { enum: ['sonnet', 'opus'], default: 'sonnet', description: 'Both run agent.model.' },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'The event stream of the job',
          headers: {
            'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
            'X-Session-Id': { description: 'The job id.', schema: { type: 'string' } },
            'X-Branch-Name': { description: 'The branch the agent works on.', schema: { type: 'string' } },
            ...rateLimitHeaders,
          },
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        ...bodyErrors,
        ...authErrors,
        '404': { $ref: '#/components/responses/NotFound' },
        '409': { $ref: '#/components/responses/Conflict' },
        '429': { $ref: '#/components/responses/TooManyRequests' },
      },
    },
  },
  '/v1/agent/{projectId}/job/{id}': {
    get: {
      operationId: 'getAgentJobV1',
      deprecated: true,
      summary: 'Get an agent job in the v1 shape',
      description: 'Deprecated: use GET /v2/agent/{projectId}/job/{id}. Any job of the project, created through v1 or v2.',
      tags: ['agent'],
      parameters: [projectId, jobId],
      responses: {
        '200': json(sessionV1, 'The job as a v1 session'),
        ...authErrors,
        '404': { $ref: '#/components/responses/NotFound' },
      },
    },
  },
  '/v1/agent/{projectId}/jobs': {
    get: {
      operationId: 'listAgentJobsV1',
      deprecated: true,
      summary: "List the project's agent jobs in the v1 shape, newest first",
      tags: ['agent'],
      parameters: [
        projectId,
        { name: 'skip', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
        { name: 'take', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 12 } },
      ],
      responses: {
        '200': json({ type: 'object', required: ['allSessions'], additionalProperties: false, properties: { allSessions: { type: 'array', items: sessionV1 } } }, 'One page of jobs'),
        '400': { $ref: '#/components/responses/BadRequest' },
        ...authErrors,
        '404': { $ref: '#/components/responses/NotFound' },
      },
    },
  },
  '/v2/agent/{projectId}/job': {
    post: {
      operationId: 'createAgentJob',
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
      operationId: 'sendAgentJobMessage',
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
      operationId: 'getAgentJob',
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
