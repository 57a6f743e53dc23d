import type { Command } from 'commander';
import { MessageRole } from '../domain/conversation.js';
import { InvalidInputError } from '../errors.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

interface ChatLogOptions {
  id?: string;
}

function parseRole(value: string): MessageRole {
  const role = MessageRole.safeParse(value.trim().toLowerCase());
  if (role.success) return role.data;
  throw new InvalidInputError(`<role>: unknown value "${value}"; expected one of ${MessageRole.options.join(', ')}`);
}

/**
 * `engram chat-log <session> <role> <text...>` (alias `say`): appends one conversation message.
 * Nothing is remembered yet: `engram extract <session>` (or the scheduler of a running app) does that.
 */
export function registerChatLog(program: Command, io: CliIo): void {
  program
    .command('chat-log')
    .alias('say')
    .description('append one message to a conversation session (remembered by `engram extract`)')
    .argument('<session>', 'session id, e.g. chat-1')
    .argument('<role>', 'user, assistant or system', parseRole)
    .argument('<text...>', 'the message (words are joined with spaces)')
    .option('--id <id>', 'message id; appending the same id again stores nothing (default: a new id)')
    .action((sessionId: string, role: MessageRole, words: string[], options: ChatLogOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const content = words.join(' ').trim();
        if (content === '') throw new InvalidInputError('the message must not be empty');
        const result = await engine.appendMessages({ messages: [{ userId, sessionId, role, content, ...(options.id ? { id: options.id } : {}) }] });
        const message = result.appended[0];
        emit(io, json, { appended: message ?? null, skipped: result.skipped }, () =>
          message
            ? `Appended ${message.role} message ${message.id} to ${sessionId} (#${message.seq}). Remember it with: engram extract ${sessionId}`
            : `Message ${options.id} is already in ${sessionId}; nothing appended.`,
        );
      }),
    );
}
