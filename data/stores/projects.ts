import type { Db } from '../db.js';

export interface GitHost {
  type: 'gitea' | 'gitlab' | 'github';
  apiUrl: string;
  tokenEnv?: string | undefined;
}

export interface Project {
  id: string;
  orgId: string;
  name: string;
  domain: string;
  /** The docs directory; null for a project published from git only (publish.source `git`). */
  sourceDir: string | null;
  repository: string | null;
  branch: string | null;
  gitHost: GitHost | null;
  createdAt: string;
}

interface Row {
  id: string;
  org_id: string;
  name: string;
  domain: string;
  source_dir: string | null;
  repository: string | null;
  branch: string | null;
  git_host: string | null;
  created_at: string;
}

const toProject = (r: Row): Project => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  domain: r.domain,
  sourceDir: r.source_dir,
  repository: r.repository,
  branch: r.branch,
  gitHost: r.git_host ? (JSON.parse(r.git_host) as GitHost) : null,
  createdAt: r.created_at,
});

export type ProjectInput = Omit<Project, 'createdAt' | 'repository' | 'branch' | 'gitHost' | 'sourceDir'> & {
  sourceDir?: string | null | undefined;
  repository?: string | null | undefined;
  branch?: string | null | undefined;
  gitHost?: GitHost | null | undefined;
};

export function createProjectStore(db: Db, now: () => Date) {
  // A retired project (no longer declared in the config) is kept with its data but is not part of
  // the appliance: not listed, not found, not served. Declaring it again brings it back.
  const get = db.prepare<[string], Row>('SELECT * FROM projects WHERE id = ? AND retired_at IS NULL');
  const byDomain = db.prepare<[string], Row>('SELECT * FROM projects WHERE domain = ? AND retired_at IS NULL');
  const all = db.prepare<[], Row>('SELECT * FROM projects WHERE retired_at IS NULL ORDER BY org_id, id');
  const retiredIds = db.prepare<[], { id: string }>('SELECT id FROM projects WHERE retired_at IS NOT NULL');
  const retire = db.prepare<[string, string]>('UPDATE projects SET retired_at = ? WHERE id = ? AND retired_at IS NULL');
  const upsert = db.prepare(
    `INSERT INTO projects (id, org_id, name, domain, source_dir, repository, branch, git_host, created_at)
     VALUES (@id, @orgId, @name, @domain, @sourceDir, @repository, @branch, @gitHost, @createdAt)
     ON CONFLICT(id) DO UPDATE SET org_id = excluded.org_id, name = excluded.name, domain = excluded.domain,
       source_dir = excluded.source_dir, repository = excluded.repository, branch = excluded.branch,
       git_host = excluded.git_host, retired_at = NULL`,
  );
  return {
    get(id: string): Project | undefined {
      const row = get.get(id);
      return row && toProject(row);
    },
    /** The project an organization's key may use: undefined when unknown or in another org. */
    getForOrg(id: string, orgId: string): Project | undefined {
      const p = this.get(id);
      return p && p.orgId === orgId ? p : undefined;
    },
    getByDomain(domain: string): Project | undefined {
      const row = byDomain.get(domain);
      return row && toProject(row);
    },
    list(): Project[] {
      return all.all().map(toProject);
    },
    upsert(p: ProjectInput): Project {
      upsert.run({
        id: p.id,
        orgId: p.orgId,
        name: p.name,
        domain: p.domain,
        sourceDir: p.sourceDir ?? null,
        repository: p.repository ?? null,
        branch: p.branch ?? null,
        gitHost: p.gitHost ? JSON.stringify(p.gitHost) : null,
        createdAt: now().toISOString(),
      });
      return this.get(p.id)!;
    },
    /** The projects the config no longer declares (kept with their data, not served). */
    retired(): Set<string> {
      return new Set(retiredIds.all().map((r) => r.id));
    },
    /** Stop using a project (its rows stay); true when it was in use. */
    retire(id: string): boolean {
      return retire.run(now().toISOString(), id).changes > 0;
    },
  };
}

export type ProjectStore = ReturnType<typeof createProjectStore>;
