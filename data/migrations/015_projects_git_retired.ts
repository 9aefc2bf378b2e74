import type { Migration } from './index.js';

/**
 * Projects (issue 38): `source_dir` becomes optional (a project published from git needs no
 * directory), and `retired_at` marks a project the config no longer declares: it is not served
 * and not listed, its rows (publishes, exports, analytics) stay, and declaring it again brings
 * it back. A domain is unique among the projects in use only, so a new project may take the
 * domain of a retired one.
 *
 * SQLite cannot drop NOT NULL in place: the table is rebuilt. Other tables reference it by
 * name, so the foreign-key checks are deferred to the commit: the drop counts its children as
 * violations and re-inserting every id resolves them; a row lost on the way fails the commit.
 */
export const projectsGitRetired: Migration = {
  id: 15,
  name: 'projects: optional source directory, retired projects',
  up: `
    PRAGMA defer_foreign_keys = ON;
    CREATE TEMP TABLE projects_before_15 AS SELECT * FROM projects;
    DROP TABLE projects;
    CREATE TABLE projects (
      id          TEXT PRIMARY KEY,
      org_id      TEXT NOT NULL REFERENCES organizations(id),
      name        TEXT NOT NULL,
      domain      TEXT NOT NULL COLLATE NOCASE,
      source_dir  TEXT,
      repository  TEXT,
      branch      TEXT,
      git_host    TEXT,
      created_at  TEXT NOT NULL,
      retired_at  TEXT
    ) STRICT;
    INSERT INTO projects (id, org_id, name, domain, source_dir, repository, branch, git_host, created_at)
      SELECT id, org_id, name, domain, source_dir, repository, branch, git_host, created_at FROM projects_before_15;
    DROP TABLE projects_before_15;
    CREATE INDEX projects_org ON projects(org_id);
    CREATE UNIQUE INDEX projects_domain_in_use ON projects(domain) WHERE retired_at IS NULL;
  `,
};
