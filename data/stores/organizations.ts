import type { Db } from '../db.js';
import type { Plan } from '../../config/schema.js';

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  createdAt: string;
}

interface Row {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
}

const toOrganization = (r: Row): Organization => ({ id: r.id, name: r.name, plan: r.plan, createdAt: r.created_at });

export function createOrganizationStore(db: Db, now: () => Date) {
  const get = db.prepare<[string], Row>('SELECT * FROM organizations WHERE id = ?');
  const all = db.prepare<[], Row>('SELECT * FROM organizations ORDER BY id');
  const upsert = db.prepare(
    `INSERT INTO organizations (id, name, plan, created_at) VALUES (@id, @name, @plan, @createdAt)
     ON CONFLICT(id) DO UPDATE SET name = excluded.name, plan = excluded.plan`,
  );
  return {
    get(id: string): Organization | undefined {
      const row = get.get(id);
      return row && toOrganization(row);
    },
    list(): Organization[] {
      return all.all().map(toOrganization);
    },
    /** Create, or update name and plan of, an organization (config sync and CLI). */
    upsert(org: { id: string; name: string; plan: Plan }): Organization {
      upsert.run({ ...org, createdAt: now().toISOString() });
      return this.get(org.id)!;
    },
  };
}

export type OrganizationStore = ReturnType<typeof createOrganizationStore>;
