import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { EngramError, parseInput } from '../errors.js';
import { copyStore, type CopyStoreReport } from '../store/copy/copy-store.js';
import type { Store } from '../store/store.js';
import { keyStoreOf, openStoreAt } from './config.js';
import { emit, type CliIo } from './io.js';
import { progressBar } from './progress.js';
import { globalsOf } from './runtime.js';

const MigrateOptions = z.object({
  from: z.string().trim().min(1, '--from names the source database'),
  to: z.string().trim().min(1, '--to names the target database'),
  intoExisting: z.boolean().optional(),
});

/** A file path is made absolute (as --db is); a URL (postgres://…) or ":memory:" is kept as given. */
const location = (raw: string): string => (raw === ':memory:' || /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : path.resolve(raw));

const table = (report: CopyStoreReport): string => {
  const width = Math.max(...report.counts.map((c) => c.table.length));
  const rows = report.counts.map((c) => `${c.table.padEnd(width)}  ${String(c.source).padStart(8)}  ${String(c.target).padStart(8)}${c.source === c.target ? '' : '  ≠'}`);
  return [`${'table'.padEnd(width)}  ${'source'.padStart(8)}  ${'target'.padStart(8)}`, ...rows].join('\n');
};

/** `engram migrate --from <db> --to <db>`: copies every user, then verifies the counts per table. */
export function registerMigrate(program: Command, io: CliIo): void {
  program
    .command('migrate')
    .description('copy everything from one database to another (e.g. engram.db to postgres://…) and verify counts per table')
    .requiredOption('--from <db>', 'the source database')
    .requiredOption('--to <db>', 'the target database; must be empty unless --into-existing')
    .option('--into-existing', 'copy into a target that already holds data (rows already there are skipped)')
    .action(async (raw: unknown, command: Command) => {
      const { json } = globalsOf(command);
      const o = parseInput(MigrateOptions, raw, 'migrate options');
      const [from, to] = [location(o.from), location(o.to)];
      if (from === to) throw new EngramError('INVALID_INPUT', '--from and --to name the same database');
      const source = openStoreAt(from);
      let target: Store | undefined;
      try {
        target = openStoreAt(to);
        const bar = json ? undefined : progressBar('migrate users');
        const report = await copyStore({
          from: source, to: target, fromKeys: keyStoreOf(source), toKeys: keyStoreOf(target),
          intoExisting: o.intoExisting ?? false, onProgress: (done, total) => bar?.update(done, total),
        });
        bar?.done();
        emit(io, json, report, () => `Copied ${report.users} ${report.users === 1 ? 'user' : 'users'} and ${report.keys} API ${report.keys === 1 ? 'key' : 'keys'} from ${from} to ${to}.\n${table(report)}\n${report.verified ? 'Counts verified.' : 'Counts differ: see ≠ above.'}`);
        if (!report.verified) throw new EngramError('MIGRATION_FAILED', `The copy's counts differ from the source's: ${report.counts.filter((c) => c.source !== c.target).map((c) => `${c.table} ${c.source}→${c.target}`).join(', ')}`);
      } finally {
        await target?.close();
        await source.close();
      }
    });
}
