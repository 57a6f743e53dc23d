import { z } from 'zod';
import { guard, ok, userArg, type ToolContext } from './tool-kit.js';

/**
 * The two tools that erase for good (both marked destructive, so clients ask the person first), and
 * the two that see and undo what a request in conversation forgot ("no wait, I didn't mean that").
 */
export function registerForgetTools({ server, memory, resolveUser }: ToolContext): void {
  server.registerTool(
    'forget_all',
    {
      title: 'Forget everything about the user',
      description:
        'Erases every memory, message, todo, profile version and history event of the user, for good. ' +
        'Only when the user explicitly asks to be forgotten; pass confirm: true.',
      inputSchema: {
        ...userArg,
        confirm: z.literal(true).describe('Must be true: the user explicitly asked to erase everything'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const userId = await resolveUser(args.user_id);
        const removed = await memory.forget({ userId });
        return ok({ forgotten: true, removed });
      }),
  );

  server.registerTool(
    'forget_topic',
    {
      title: 'Forget a topic',
      description: 'Erases for good the memories and episodes about a topic (e.g. "跳槽", "my ex"), and rewrites the profile without it.',
      inputSchema: { ...userArg, topic: z.string().trim().min(1).max(200).describe('The topic, in the words the user used') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const report = await memory.forgetTopic(await resolveUser(args.user_id), args.topic);
        return ok(report);
      }),
  );

  server.registerTool(
    'list_forgotten',
    {
      title: 'What the user asked to forget',
      description:
        'Lists what the user asked in conversation to forget ("忘掉我前女友的事", "forget what I told you about my ex") and can still be brought back (for 7 days), newest first: the id to undo, the request\'s words, what it took.',
      inputSchema: { ...userArg },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) => guard(async () => ok({ items: await memory.forgottenOnRequest(await resolveUser(args.user_id)) })),
  );

  server.registerTool(
    'undo_forget',
    {
      title: 'Bring back what the user asked to forget',
      description:
        'Brings back what a request in conversation forgot (its messages, memories, todos and the profile before it), when the user says it was not meant ("我不是这个意思，恢复吧", "no wait, undo that"). Take the id from list_forgotten.',
      inputSchema: { ...userArg, id: z.string().trim().min(1).max(200).describe('The id list_forgotten gives for the request') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => guard(async () => ok(await memory.undoForgotten(await resolveUser(args.user_id), args.id))),
  );
}
