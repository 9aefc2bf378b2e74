import { ALL_SCOPES, KNOWN_SCOPES, type Scope } from '../../data/stores/admin-keys.js';
import { createAssistantKey } from './assistant-keys.js';
import { noConfigHint, openState, parse, probeState, println, readStdin, UsageError, type Command, type CommandIo } from './io.js';

export const keysCommand: Command = {
  summary: 'Create, import, list and revoke admin API keys',
  usage: `docs-appliance keys create --org <orgId> [--scopes read,write] [--expires-in <days>] [--label <text>] [--json] [--config <file>]
docs-appliance keys create --org <orgId> --scopes replica [--all-organizations] [--expires-in <days>] [--label <text>] [--json] [--config <file>]
    (a replica key follows the sites of its organization; with --all-organizations, of every organization)
docs-appliance keys create --type assistant --project <projectId> [--expires-in <days>] [--label <text>] [--json] [--config <file>]
docs-appliance keys import --org <orgId> [--scopes read,write | --scopes replica [--all-organizations]] [--expires-in <days>] [--label <text>] [--json] [--config <file>]   (the key on standard input)
docs-appliance keys list [--org <orgId>] [--json] [--config <file>]
docs-appliance keys revoke <keyId> [--config <file>]`,
  details: `Keys live in the server's database: pass the server's config file with --config <file> or
DOCS_APPLIANCE_CONFIG (a container started as docs/operations.md shows has it set). Without either,
keys uses the embedded defaults, whose state directory is ./var of the current directory: run
outside the project directory, that holds no organization, and keys create says so.`,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const args = parse(rest, {
      org: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in': { type: 'string' },
      label: { type: 'string' },
      type: { type: 'string' },
      project: { type: 'string' },
      'all-organizations': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    const v = args.values;
    if (sub === 'create' || sub === 'import') {
      // No config file and no database: nothing can be found, and opening would create ./var.
      const probe = probeState(v.config, io);
      const missing = sub === 'create' && v.type === 'assistant' ? v.project && `no project "${v.project}"` : v.org && `no organization "${v.org}"`;
      if (!probe.configFile && !probe.hasDatabase && missing) {
        println(io.stderr, `error: ${missing} (known: none)${noConfigHint(probe)}`);
        return 1;
      }
    }
    const state = openState(v.config, io);
    try {
      if (v.type !== undefined && v.type !== 'admin' && v.type !== 'assistant') throw new UsageError(`--type takes admin or assistant, got "${v.type}"`);
      if (sub === 'create' && v.type === 'assistant') return createAssistantKey(state, { project: v.project, expiresAt: expiresOption(v['expires-in']), label: v.label ?? null, json: v.json === true }, io);
      if (sub === 'create' || sub === 'import') {
        if (!v.org) throw new UsageError('--org is required');
        if (!state.stores.organizations.get(v.org)) {
          println(io.stderr, `error: no organization "${v.org}" (known: ${state.stores.organizations.list().map((o) => o.id).join(', ') || 'none'})${noConfigHint(state)}`);
          return 1;
        }
        const scopes = scopesOption(v.scopes);
        const allOrganizations = v['all-organizations'] === true;
        if (allOrganizations && !scopes.includes('replica')) throw new UsageError('--all-organizations is for a replica key (--scopes replica): an admin key belongs to one organization');
        const input = { orgId: v.org, scopes, allOrganizations, expiresAt: expiresOption(v['expires-in']), label: v.label ?? null };
        if (sub === 'import') return await importKey(input, v.json === true, io, state.stores);
        const { key, record } = state.stores.adminKeys.create(input);
        if (v.json) println(io.stdout, JSON.stringify({ id: record.id, key, orgId: record.orgId, scopes: record.scopes, allOrganizations: record.allOrganizations, expiresAt: record.expiresAt }));
        else {
          println(io.stdout, `Created ${record.id} for ${record.orgId} (scopes: ${describeScopes(record)}${record.expiresAt ? `, expires ${record.expiresAt}` : ''}).`);
          println(io.stdout, `Key (shown once): ${key}`);
          if (record.scopes.includes('replica') && !record.allOrganizations) println(io.stdout, `A replica with this key follows the sites of ${record.orgId} only (--all-organizations for every organization's).`);
        }
        return 0;
      }
      if (sub === 'list') {
        const keys = state.stores.adminKeys.list(v.org);
        if (v.json) println(io.stdout, JSON.stringify(keys));
        else for (const k of keys) println(io.stdout, `${k.id}  ${k.orgId}  ${k.prefix}…  ${k.allOrganizations ? 'replica,all-organizations' : k.scopes.join(',')}  ${k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= Date.now() ? 'expired' : 'active'}${k.label ? `  ${k.label}` : ''}`);
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

/** The scopes as `keys create` and `import` print them; an all-organizations replica key says so. */
function describeScopes(k: { scopes: Scope[]; allOrganizations: boolean }): string {
  return k.allOrganizations ? 'replica, all organizations' : k.scopes.join(', ');
}

function scopesOption(value: string | undefined): Scope[] {
  const scopes = (value ?? ALL_SCOPES.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
  const bad = scopes.filter((s) => !(KNOWN_SCOPES as readonly string[]).includes(s));
  if (bad.length || scopes.length === 0) throw new UsageError(`--scopes takes read and/or write (or replica alone), got "${value}"`);
  if (scopes.includes('replica') && scopes.length > 1) throw new UsageError('a replica key has the replica scope alone (--scopes replica)');
  return scopes as Scope[];
}

function expiresOption(value: string | undefined): Date | null {
  if (value === undefined) return null;
  const days = Number(value);
  if (!Number.isFinite(days) || days <= 0) throw new UsageError('--expires-in takes a positive number of days');
  return new Date(Date.now() + days * 86_400_000);
}

/**
 * `keys import`: the key comes on standard input (argv shows in `ps` and shell history), one line,
 * surrounding whitespace ignored. Only its hash is stored; the key itself is never printed.
 */
async function importKey(
  input: { orgId: string; scopes: Scope[]; allOrganizations: boolean; expiresAt: Date | null; label: string | null },
  json: boolean,
  io: CommandIo,
  stores: ReturnType<typeof openState>['stores'],
): Promise<number> {
  if (io.stdin?.isTTY) println(io.stderr, 'Paste the key and end with Ctrl-D:');
  const key = (await readStdin(io)).trim();
  if (!key) throw new UsageError('keys import reads the key from standard input, which was empty');
  const result = stores.adminKeys.import({ ...input, key });
  if (!result.ok) {
    println(
      io.stderr,
      result.reason === 'duplicate'
        ? 'error: this key is already stored (keys list shows it by its prefix)'
        : 'error: not an admin key: expected "mint_" followed by 32 to 128 letters and digits',
    );
    return 1;
  }
  const { record } = result;
  if (json) println(io.stdout, JSON.stringify({ id: record.id, orgId: record.orgId, prefix: record.prefix, scopes: record.scopes, allOrganizations: record.allOrganizations, expiresAt: record.expiresAt }));
  else println(io.stdout, `Imported ${record.id} (${record.prefix}…) for ${record.orgId} (scopes: ${describeScopes(record)}${record.expiresAt ? `, expires ${record.expiresAt}` : ''}).`);
  return 0;
}
