import { z } from 'zod';
import { guard, ok, userArg, type ToolContext } from './tool-kit.js';

/** The two tools that erase for good; both are marked destructive so clients ask the person first. */
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
}
