/** The editor's JSON API (docs: EDITOR-CONTRACT, `<editor>/api/`), with the session's CSRF header on every change. */

export interface Branch { name: string; head: string; preview?: { url: string; status: string } }
export interface EditorState { source: 'git' | 'directory'; defaultBranch: string; branches: Branch[]; canWrite: boolean; user: { name: string } }
export type EntryKind = 'page' | 'snippet' | 'image' | 'config' | 'other';
export interface TreeEntry { path: string; kind: EntryKind; size: number }
export interface FileBody { path: string; content: string; sha: string; head: string }
export interface PreviewError { file: string; line: number; column?: number; message: string }
export interface Conflict { path: string; theirs: string; theirsSha: string; diff: string; by?: { commit: string; author: string; message: string } }

/** A refused request: the catalogue's code and message, and the body's extra fields (conflict, files). */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly body: Record<string, unknown>) {
    super(message);
  }
}

export interface EditorApi {
  state(): Promise<EditorState>;
  createBranch(name: string, from?: string): Promise<{ name: string; head: string }>;
  tree(branch: string): Promise<{ branch: string; head: string; entries: TreeEntry[] }>;
  file(branch: string, path: string): Promise<FileBody>;
  save(input: { branch: string; path: string; content: string; baseSha: string | null; message?: string }): Promise<{ path: string; sha: string; commit: string | null; head: string }>;
  rename(input: { branch: string; from: string; to: string; redirect: boolean }): Promise<{ commit: string | null; head: string }>;
  remove(branch: string, path: string, baseSha: string): Promise<{ commit: string | null; head: string }>;
  upload(branch: string, path: string, file: Blob): Promise<{ path: string; sha: string; commit: string | null }>;
  preview(input: { branch: string; path: string; content: string; dark?: boolean }, signal?: AbortSignal): Promise<{ html: string; errors: PreviewError[] }>;
  deployPreview(branch: string): Promise<{ previewUrl: string; publishId: string }>;
  publish(branch: string): Promise<{ publishId: string; merged: string | null }>;
  pullRequest(input: { branch: string; title: string; description: string }): Promise<{ url: string }>;
}

export function createApi(base: string, csrf: string): EditorApi {
  const root = base.endsWith('/') ? base : base + '/';
  async function call<T>(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (method !== 'GET') headers['X-CSRF-Token'] = csrf;
    let payload: BodyInit | undefined;
    if (body instanceof Blob) {
      payload = body;
      headers['Content-Type'] = body.type || 'application/octet-stream';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(root + path, { method, headers, body: payload, credentials: 'same-origin', ...init });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // A proxy's HTML error page: keep the status, say so plainly.
      json = { error: `${res.status} ${res.statusText}` };
    }
    if (!res.ok) throw new ApiError(res.status, String(json.code ?? 'HTTP_' + res.status), String(json.error ?? res.statusText), json);
    return json as T;
  }
  const q = (params: Record<string, string>): string => new URLSearchParams(params).toString();
  return {
    state: () => call('GET', 'state'),
    createBranch: (name, from) => call('POST', 'branches', from ? { name, from } : { name }),
    tree: (branch) => call('GET', `tree?${q({ branch })}`),
    file: (branch, path) => call('GET', `file?${q({ branch, path })}`),
    save: (input) => call('PUT', 'file', input),
    rename: (input) => call('POST', 'rename', input),
    remove: (branch, path, baseSha) => call('DELETE', `file?${q({ branch, path, baseSha })}`),
    upload: (branch, path, file) => call('POST', `upload?${q({ branch, path })}`, file),
    preview: (input, signal) => call('POST', 'preview', input, signal ? { signal } : {}),
    deployPreview: (branch) => call('POST', 'deploy-preview', { branch }),
    publish: (branch) => call('POST', 'publish', { branch }),
    pullRequest: (input) => call('POST', 'pull-request', input),
  };
}
