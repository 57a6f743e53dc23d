import { z } from 'zod';
import { describeRecurrence } from '../domain/recurrence.js';
import type { Todo } from '../domain/todo.js';
import { detectLanguage } from '../text/language.js';
import { byAssistant, guard, memoryView, ok, userArg, type ToolContext } from './tool-kit.js';

const todoView = (t: Todo): Record<string, unknown> => ({
  id: t.id,
  content: t.content,
  ...(t.dueAt ? { dueAt: t.dueAt.toISOString() } : {}),
  ...(t.remindAt ? { remindAt: t.remindAt.toISOString() } : {}),
  ...(t.repeat ? { repeats: describeRecurrence(t.repeat, detectLanguage(t.content)), repeat: t.repeat } : {}),
  completed: t.completed,
});

/** get_context, list_todos, update_todo, complete_todo, record_learning: what an assistant uses while it works. */
export function registerAssistTools({ server, memory, resolveUser }: ToolContext): void {
  server.registerTool(
    'get_context',
    {
      title: 'Memory for this message',
      description: "A token-budgeted block of what Engram knows that is relevant to the user's message: profile, due todos, memories, recent conversations.",
      inputSchema: {
        ...userArg,
        message: z.string().trim().min(1).max(20_000).describe("The user's current message"),
        token_budget: z.number().int().min(0).max(8000).optional().describe('default 800'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const block = await memory.context({ userId: await resolveUser(args.user_id), query: args.message, tokenBudget: args.token_budget ?? 800 });
        return { content: [{ type: 'text', text: block.text === '' ? '(nothing relevant remembered)' : block.text }] };
      }),
  );

  server.registerTool(
    'list_todos',
    {
      title: 'List todos',
      description: "The user's open todos (or completed ones), soonest due first.",
      inputSchema: { ...userArg, completed: z.boolean().optional().describe('default false'), limit: z.number().int().min(1).max(200).optional() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const todos = await memory.listTodos({ userId: await resolveUser(args.user_id), completed: args.completed ?? false, limit: args.limit ?? 50 });
        return ok({ todos: todos.map(todoView) });
      }),
  );

  server.registerTool(
    'update_todo',
    {
      title: 'Move or reword a todo',
      description:
        'Moves an open todo to a new time, as the user said it ("下午四点" keeps the day, "周六" keeps the time of day, "每天晚上九点" makes it repeat; "4pm", "Monday", "every weekday at 10am"), moves its reminder ("提前半小时", "the day before", or a time of its own: "下周一早上", "Monday at 9am"), or rewords it. Its memory follows and its reminder is set again for the new time.',
      inputSchema: {
        ...userArg,
        id: z.string().trim().min(1).max(200).describe('The todo id from list_todos'),
        when: z.string().trim().min(1).max(200).optional().describe("The new time in the user's words"),
        due_at: z.iso.datetime({ offset: true }).optional().describe('Or the new due time outright (ISO 8601 with offset); the reminder keeps its lead'),
        // Words are checked by the library as sent, then trimmed (domain/content-text.ts).
        content: z.string().min(1).max(2000).optional().describe('New words for the todo (they do not move it)'),
        repeat: z.literal(false).optional().describe('false: it no longer repeats'),
        remind: z.string().trim().min(1).max(200).optional().describe('When the reminder comes, as said: how far ahead ("提前半小时", "前一天晚上", "30 minutes before", "the day before") or a time of its own, before the todo\'s ("下周一早上", "Monday at 9am")'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const edit = {
          ...(args.when !== undefined ? { when: args.when } : {}),
          ...(args.due_at !== undefined ? { dueAt: new Date(args.due_at) } : {}),
          ...(args.content !== undefined ? { content: args.content } : {}),
          ...(args.repeat === false ? { repeat: null } : {}),
          ...(args.remind !== undefined ? { remind: args.remind } : {}),
        };
        return ok({ updated: todoView(await memory.editTodo(await resolveUser(args.user_id), args.id, edit, byAssistant('changed through MCP update_todo'))) });
      }),
  );

  server.registerTool(
    'complete_todo',
    {
      title: 'Complete a todo',
      description: 'Marks a todo done (no more reminders). A repeating todo moves to its next time instead (its dueAt in the answer); series: true ends it.',
      inputSchema: {
        ...userArg,
        id: z.string().trim().min(1).max(200).describe('The todo id from list_todos'),
        series: z.boolean().optional().describe('For a repeating todo: end the whole series (default: only this time)'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) => guard(async () => ok({ completed: todoView(await memory.completeTodo(await resolveUser(args.user_id), args.id, { series: args.series === true }, byAssistant(args.series === true ? 'repeating todo ended through MCP complete_todo' : 'completed through MCP complete_todo'))) })),
  );

  server.registerTool(
    'record_learning',
    {
      title: 'Record a learning',
      description: 'After a task went well: stores the steps that worked (or an error and its fix) so they can be reused for a similar task.',
      inputSchema: {
        ...userArg,
        task: z.string().min(1).max(500).describe('What the procedure is for, e.g. "生成周报"'),
        steps: z.array(z.string().min(1).max(1000)).min(1).max(50).describe('The steps or tool calls that worked, in order'),
        tools: z.array(z.string().max(200)).max(50).optional(),
        error: z.string().max(2000).optional(),
        fix: z.string().max(2000).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const m = await memory.recordLearning({ userId: await resolveUser(args.user_id), task: args.task, steps: args.steps, tools: args.tools, error: args.error, fix: args.fix }, byAssistant('recorded through MCP record_learning'));
        return ok({ recorded: memoryView(m) });
      }),
  );
}
