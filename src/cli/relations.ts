import type { Command } from 'commander';
import { RELATION_TYPES, type RelationType } from '../domain/profile.js';
import { InvalidInputError } from '../errors.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

interface AddOptions {
  type: RelationType;
  strength?: number;
  reason?: string;
}

const parseType = (value: string): RelationType => {
  const v = value.trim().toLowerCase();
  if ((RELATION_TYPES as readonly string[]).includes(v)) return v as RelationType;
  throw new InvalidInputError(`--type: unknown value "${value}"; expected one of ${RELATION_TYPES.join(', ')}`);
};

const parseStrength = (value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidInputError(`--strength must be a number from 0 to 1, got "${value}"`);
  return n;
};

/** `engram relations add <source> <target> --type supports` and `engram relations remove <id>` (seed 004 §3.1). */
export function registerRelations(program: Command, io: CliIo): void {
  const relations = program.command('relations').description('link two memories (supports, contradicts, refines, …) or remove a link; engram show lists them');
  relations
    .command('add')
    .description('link <source> to <target>: "<source> supports <target>"')
    .argument('<source>', 'memory id the relation goes from')
    .argument('<target>', 'memory id it goes to')
    .requiredOption('-t, --type <type>', RELATION_TYPES.join(', '), parseType)
    .option('-s, --strength <0..1>', 'how strongly (default 1)', parseStrength)
    .option('-r, --reason <text>', 'why, in a few words')
    .action((source: string, target: string, options: AddOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const relation = await engine.relate({ userId, sourceId: source, targetId: target, type: options.type, ...(options.strength !== undefined ? { strength: options.strength } : {}), ...(options.reason ? { reason: options.reason } : {}) });
        emit(io, json, relation, () => `Linked ${relation.id}: ${source} ${relation.type} ${target} (strength ${relation.strength})`);
      }),
    );
  relations
    .command('remove')
    .description('remove one relation by its id (see engram show <memory> --json)')
    .argument('<id>', 'relation id')
    .action((id: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        await engine.unrelate(userId, id);
        emit(io, json, { removed: id }, () => `Removed relation ${id}`);
      }),
    );
}
