import { ALL_SCOPES, type Scope } from '../../data/stores/admin-keys.js';
import { openState, parse, println, UsageError, type Command } from './io.js';

export const keysCommand: Command = {
  summary: 'Create, list and revoke admin API keys',
  usage: `docs-appliance keys create --org <orgId> [--scopes read,write] [--expires-in <days>] [--label <text>] [--json]
docs-appliance keys list [--org <orgId>] [--json]
docs-appliance keys revoke <keyId>`,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const args = parse(rest, {
      org: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in': { type: 'string' },
      label: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const v = args.values;
    const state = openState(v.config, io);
    try {
      if (sub === 'create') {
        if (!v.org) throw new UsageError('--org is required');
        if (!state.stores.organizations.get(v.org)) {
          println(io.stderr, `error: no organization "${v.org}" (known: ${state.stores.organizations.list().map((o) => o.id).join(', ') || 'none'})`);
          return 1;
        }
        const scopes = (v.scopes ?? ALL_SCOPES.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
        const bad = scopes.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
        if (bad.length || scopes.length === 0) throw new UsageError(`--scopes takes read and/or write, got "${v.scopes}"`);
        let expiresAt: Date | null = null;
        if (v['expires-in'] !== undefined) {
          const days = Number(v['expires-in']);
          if (!Number.isFinite(days) || days <= 0) throw new UsageError('--expires-in takes a positive number of days');
          expiresAt = new Date(Date.now() + days * 86_400_000);
        }
        const { key, record } = state.stores.adminKeys.create({ orgId: v.org, scopes: scopes as Scope[], expiresAt, label: v.label ?? null });
        if (v.json) println(io.stdout, JSON.stringify({ id: record.id, key, orgId: record.orgId, scopes: record.scopes, expiresAt: record.expiresAt }));
        else {
          println(io.stdout, `Created ${record.id} for ${record.orgId} (scopes: ${record.scopes.join(', ')}${record.expiresAt ? `, expires ${record.expiresAt}` : ''}).`);
          println(io.stdout, `Key (shown once): ${key}`);
        }
        return 0;
      }
      if (sub === 'list') {
        const keys = state.stores.adminKeys.list(v.org);
        if (v.json) println(io.stdout, JSON.stringify(keys));
        else for (const k of keys) println(io.stdout, `${k.id}  ${k.orgId}  ${k.prefix}…  ${k.scopes.join(',')}  ${k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= Date.now() ? 'expired' : 'active'}${k.label ? `  ${k.label}` : ''}`);
        return 0;
      }
      if (sub === 'revoke') {
        const id = args.positionals[0];
        if (!id) throw new UsageError('keys revoke needs a key id');
        if (!state.stores.adminKeys.get(id)) {
          println(io.stderr, `error: no key ${id}`);
          return 1;
        }
        const changed = state.stores.adminKeys.revoke(id);
        if (v.json) println(io.stdout, JSON.stringify({ id, revoked: true }));
        else println(io.stdout, changed ? `Revoked ${id}.` : `${id} was already revoked.`);
        return 0;
      }
      throw new UsageError(`unknown keys subcommand "${sub ?? ''}"`);
    } finally {
      state.close();
    }
  },
};
