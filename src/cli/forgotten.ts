import type { Command } from 'commander';
import { FORGET_UNDO_DAYS } from '../domain/forgotten.js';
import { table, when } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

/**
 * `engram forgotten [undo <id> | erase <id>]`: what requests in conversation forgot ("忘掉…",
 * "forget…"), kept to be undone for FORGET_UNDO_DAYS days; `undo` brings it back, `erase` erases it now.
 */
export function registerForgotten(program: Command, io: CliIo): void {
  const forgotten = program
    .command('forgotten')
    .description(`what requests in conversation forgot, undoable for ${FORGET_UNDO_DAYS} days: list them, undo one, or erase one now`)
    .action((_options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const items = await engine.forgottenOnRequest(userId);
        emit(io, json, { userId, items }, () =>
          items.length === 0
            ? `Nothing forgotten on request for ${userId} can be undone.`
            : table(
                [{ header: 'id' }, { header: 'asked' }, { header: 'request', max: 40 }, { header: 'memories' }, { header: 'messages' }, { header: 'until' }],
                items.map((r) => [r.id, when(r.at), r.request, String(r.memories), String(r.messages), when(r.expiresAt)]),
              ) + '\nUndo one with `engram forgotten undo <id>`, or erase it now with `engram forgotten erase <id>`.',
        );
      }),
    );
  forgotten
    .command('undo <id>')
    .description('bring back what the request forgot: its messages, memories, todos, and the profile before it')
    .action((id: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const r = await engine.undoForgotten(userId, id);
        emit(io, json, r, () => `Brought back what "${r.topic}" forgot for ${userId}: ${r.memories} memories, ${r.messages} messages, ${r.todos} todos${r.profile ? ', and the profile before it' : ''}.`);
      }),
    );
  forgotten
    .command('erase <id>')
    .description('erase what the request forgot now, for good, rather than when its undo time ends')
    .action((id: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const r = await engine.eraseForgotten(userId, id);
        emit(io, json, r, () => `Erased for good what ${id} forgot for ${userId}: ${r.memories} memories, ${r.messages} messages.`);
      }),
    );
}
