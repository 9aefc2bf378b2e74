#!/usr/bin/env node
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { explainDatabaseDamage } from '../data/db-damage.js';
import { analyticsCommand } from './commands/analytics.js';
import { auditCommand } from './console/audit-command.js';
import { backupCommand } from './commands/backup.js';
import { agentCommand } from './commands/agent.js';
import { doctorCommand } from './commands/doctor.js';
import { appVersion, commandHelp, globalHelp, wantsHelp } from './commands/help.js';
import { exportCommand } from './commands/export.js';
import { feedbackCommand } from './commands/feedback.js';
import { type Command, type CommandIo, UsageError, println } from './commands/io.js';
import { keysCommand } from './commands/keys.js';
import { projectsCommand } from './commands/projects.js';
import { readerAuthCommand } from './commands/reader-auth.js';
import { serveCommand } from './commands/serve.js';
import { sitesCommand } from './commands/sites.js';
import { runtimeGate, UNSUPPORTED_RUNTIME_EXIT_CODE } from './runtime-guard.js';

/** Every command of `docs-appliance`. Features add theirs here, one line each. */
const commands: Record<string, Command> = {
  serve: serveCommand,
  agent: agentCommand,
  keys: keysCommand,
  projects: projectsCommand,
  doctor: doctorCommand,
  backup: backupCommand,
  sites: sitesCommand,
  export: exportCommand,
  analytics: analyticsCommand,
  feedback: feedbackCommand,
  audit: auditCommand,
  'reader-auth': readerAuthCommand,
};

export async function main(argv: string[], io: CommandIo): Promise<number> {
  const first = argv[0];
  if (first === '--version' || first === '-V' || first === 'version') {
    println(io.stdout, `docs-appliance ${appVersion()}`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const target = argv[1] === undefined ? undefined : commands[argv[1]];
    println(io.stdout, target ? commandHelp(argv[1]!, target, argv[2]) : globalHelp(commands));
    return 0;
  }
  // Options with no command are serve's (`docs-appliance --config x.json`).
  const [name = 'serve', ...rest] = first?.startsWith('-') ? ['serve', ...argv] : argv;
  const command = commands[name];
  if (!command) {
    println(io.stderr, `Unknown command "${name}". Run docs-appliance --help.`);
    return 2;
  }
  if (wantsHelp(rest)) {
    println(io.stdout, commandHelp(name, command, rest[0]?.startsWith('-') ? undefined : rest[0]));
    return 0;
  }
  if (command.versionOption ? rest.length === 1 && rest[0] === '--version' : rest.includes('--version')) {
    println(io.stdout, `docs-appliance ${appVersion()}`);
    return 0;
  }
  // Before any command can load the SQLite driver: a pair known to abort is refused here.
  const gate = runtimeGate(io.env);
  if (gate.refuse !== undefined) {
    println(io.stderr, gate.refuse);
    return UNSUPPORTED_RUNTIME_EXIT_CODE;
  }
  // serve logs its warnings in its own log; an end-of-life Node is only named by serve and doctor.
  if (gate.assessment.kind === 'aborts' && command !== serveCommand) println(io.stderr, `warning: ${gate.warning}`);
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      println(io.stderr, `error: ${err.message}\nusage:\n${command.usage.split('\n').map((l) => `  ${l}`).join('\n')}\n(docs-appliance ${name} --help for more)`);
      return 2;
    }
    // A damaged database met after opening (a torn page deep in a table) still names the recovery.
    println(io.stderr, `error: ${(explainDatabaseDamage(err, undefined) as Error).message}`);
    return 1;
  }
}

/** Run as the process's entry: exit status from the command. */
export function runCli(argv: string[] = process.argv.slice(2)): void {
  const io: CommandIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
  main(argv, io).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}

// `node dist/app/cli.js …` (npm start) runs it; importing the module (tests, bin/) does not.
if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) runCli();
