/** The render-warning fields of a finished publish's and export job's status (app/loader/render-warnings.ts). */
export const RENDER_WARNING_PROPERTIES = {
  warningCount: { type: 'integer', minimum: 0, description: 'Render warnings of the bundle this made (present once it succeeded).' },
  warningsByKind: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 }, description: 'Warnings by code (`broken-link`, `missing-asset`, `redirect-to-nowhere`, `blocked-script`…), most frequent first.' },
  warnings: {
    type: 'array',
    maxItems: 100,
    description: 'The first 100 warnings; `page` links to the page the file renders, when it is one.',
    items: {
      type: 'object',
      required: ['code', 'message', 'file'],
      additionalProperties: false,
      properties: { code: { type: 'string' }, message: { type: 'string' }, file: { type: 'string' }, line: { type: 'integer', minimum: 1 }, page: { type: 'string' } },
    },
  },
} as const;
