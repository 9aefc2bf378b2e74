import type { AuditEntry } from '../../data/stores/console-audit.js';

/**
 * An audit entry as a sentence a person reads ("Ada created key key_… "CI", write scopes, expiring
 * 2027-01-01"); the CSV and the CLI keep the raw fields. An action this file does not know yet
 * still reads as "<who> <action> <target>", with its details.
 */
export function auditSentence(e: AuditEntry): string {
  const d = e.detail ?? {};
  const str = (k: string): string | undefined => (typeof d[k] === 'string' ? (d[k] as string) : undefined);
  const project = str('projectId') ? ` of project ${str('projectId')}` : '';
  switch (e.action) {
    case 'session.sign-in': {
      const how = str('method') === 'sso' ? 'with single sign-on' : 'with an admin key';
      return `${e.actor} signed in ${how}${str('role') ? ` (${str('role')} role)` : ''}`;
    }
    case 'session.sign-out':
      return `${e.actor} signed out`;
    case 'reader.sign-in':
      return `A reader signed in to project ${e.target} (${str('method') ?? '?'}${str('session') ? `, session ${str('session')}` : ''})`;
    case 'reader.sign-in-failed':
      return `A reader's ${str('method') ?? ''} sign-in to project ${e.target} failed`;
    case 'reader.sign-out':
      return `A reader signed out of project ${e.target}${str('session') ? ` (session ${str('session')})` : ''}`;
    case 'reader.session-revoked':
      return `${e.actor} revoked reader session ${str('session') ?? ''} of project ${e.target}`;
    case 'export.start':
      return `${e.actor} started export ${e.target}${project}`;
    case 'publish.start':
      return `${e.actor} started publish ${e.target}${project}`;
    case 'publish.rollback':
      return `${e.actor} rolled${str('projectId') ? ` project ${str('projectId')}` : ''} back${str('to') ? ` to ${str('to')}` : ''} (${e.target})`;
    case 'automation.run':
      return `${e.actor} ran automation ${str('automationId') ?? '?'}${project} now (run ${e.target}${str('jobId') ? `, agent job ${str('jobId')}` : ''})`;
    case 'agent.archive':
      return `${e.actor} archived agent job ${e.target}${project}`;
    // The web editor (app/editor): directory writes, and the Git actions that are not commits.
    case 'editor.save':
      return `${e.actor} saved ${e.target} in the editor${project}`;
    case 'editor.create':
      return `${e.actor} created ${e.target} in the editor${project}`;
    case 'editor.delete':
      return `${e.actor} deleted ${e.target} in the editor${project}`;
    case 'editor.rename':
      return `${e.actor} renamed ${e.target} to ${str('to') ?? '?'} in the editor${project}${d.redirect === true ? ' (with a redirect)' : ''}`;
    case 'editor.branch-create':
      return `${e.actor} created branch ${e.target} in the editor${project}`;
    case 'editor.deploy-preview':
      return `${e.actor} deployed the preview of branch ${e.target}${project}${str('publishId') ? ` (${str('publishId')})` : ''}`;
    case 'editor.pull-request':
      return `${e.actor} opened a pull request for branch ${e.target}${project}${str('url') ? `: ${str('url')}` : ''}`;
    case 'key.create': {
      const scopes = Array.isArray(d.scopes) ? (d.scopes as unknown[]).join(', ') : undefined;
      const parts = [str('label') ? `"${str('label')}"` : undefined, scopes ? `scopes ${scopes}` : undefined, str('expiresAt') ? `expiring ${str('expiresAt')!.slice(0, 10)}` : 'never expiring'];
      return `${e.actor} created key ${e.target} (${parts.filter(Boolean).join(', ')})`;
    }
    case 'key.revoke': {
      const ended = typeof d.sessionsEnded === 'number' ? d.sessionsEnded : 0;
      return `${e.actor} revoked key ${e.target}${ended ? ` and ended ${ended} console session${ended === 1 ? '' : 's'} signed in with it` : ''}`;
    }
    default: {
      const rest = Object.entries(d).map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
      return `${e.actor} ${e.action} ${e.target}${rest.length ? ` (${rest.join(', ')})` : ''}`;
    }
  }
}
