import type { Command } from 'commander';
import type { Memory, MemoryKind, MemoryStatus } from '../domain/memory.js';
import { InvalidInputError } from '../errors.js';
import { num, table, when } from './format.js';
import { emit, type CliIo } from './io.js';
import { collectKinds, collectStatuses, positiveInt, readDate } from './options.js';
import { withEngine } from './runtime.js';

interface ListOptions {
  kind?: MemoryKind[];
  status?: MemoryStatus[];
  from?: string;
  to?: string;
  limit: number;
}

/** `engram list`: the user's memories, newest first, with filters. */
export function registerList(program: Command, io: CliIo): void {
  program
    .command('list')
    .description("list the user's memories, newest first")
    .option('-k, --kind <kind>', 'only these kinds (repeatable, or comma-separated)', collectKinds)
    .option('-s, --status <status>', 'active, archived, deleted (repeatable; default active)', collectStatuses)
    .option('--from <date>', 'created on or after this date')
    .option('--to <date>', 'created on or before this date')
    .option('-n, --limit <n>', 'most memories', positiveInt('--limit'), 50)
    .action((options: ListOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const now = engine.deps.clock.now();
        const from = options.from === undefined ? undefined : await readDate('--from', options.from, now);
        let to = options.to === undefined ? undefined : await readDate('--to', options.to, now);
        // "--to 2026-04-10" means through the end of that day, not its first instant.
        if (to && /^\d{4}-\d{2}-\d{2}$/.test(options.to!.trim())) to = new Date(to.getTime() + 86_400_000 - 1);
        if (from && to && from > to) throw new InvalidInputError('--from is after --to');
        const memories = await engine.list({
          userId,
          limit: options.limit,
          ...(options.kind ? { kinds: options.kind } : {}),
          ...(options.status ? { statuses: options.status } : {}),
          ...(from ? { createdFrom: from } : {}),
          ...(to ? { createdTo: to } : {}),
        });
        emit(io, json, { memories }, () => (memories.length === 0 ? 'No memories.' : renderList(memories)));
      }),
    );
}

function renderList(memories: readonly Memory[]): string {
  // A flagged memory is marked where it is read: ⚠ before the content.
  const rows = memories.map((m) => [m.id, m.kind, m.status, num(m.importance, 2), when(m.createdAt), m.flags?.length ? `⚠ [${m.flags.join(',')}] ${m.content}` : m.content]);
  const body = table(
    [{ header: 'id' }, { header: 'kind' }, { header: 'status' }, { header: 'imp', align: 'right' }, { header: 'created' }, { header: 'content', max: 50 }],
    rows,
  );
  return `${body}\n\n${memories.length} ${memories.length === 1 ? 'memory' : 'memories'}`;
}
