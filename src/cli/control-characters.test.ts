import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => {
  h = cliHarness({ env: { ENGRAM_USER: 'alice' } });
});
afterEach(() => h.cleanup());

const at = '2026-01-01T00:00:00.000Z';

describe('control characters at the CLI: exit 2 and one line naming the character (zh, en)', () => {
  it.each([
    ['zh', '用户对\u0000花生过敏', 'U+0000 at character 4', '用户喜欢猫', '明天下午三点开会'],
    ['en', 'The user likes \u001b[31mred', 'U+001B at character 16', 'The user likes cats', 'call mom tomorrow at 3pm'],
  ])('%s: add, edit, todo-move --content and import store nothing', async (_, bad, where, good, todoText) => {
    const add = await h.cli(['add', bad]);
    expect([add.code, add.stdout, add.stderr]).toEqual([2, '', `error [INVALID_INPUT]: Invalid memory: content: must not contain control characters: ${where} (tab, line feed and carriage return are kept)\n`]);
    const json = await h.cli(['--json', 'add', bad]);
    expect([json.code, (JSON.parse(json.stderr) as { error: { code: string } }).error.code]).toEqual([2, 'INVALID_INPUT']);

    const kept = (await h.cli(['--json', 'add', good])).json<Memory>();
    const edit = await h.cli(['edit', kept.id, '--content', `${good}\u0007`]);
    expect([edit.code, edit.stderr]).toEqual([2, expect.stringMatching(/^error \[INVALID_INPUT\]: Invalid memory update: content: .*U\+0007/)]);

    await h.cli(['add', '--kind', 'todo', todoText]);
    const [todo] = (await h.cli(['--json', 'todos'])).json<{ todos: Array<{ id: string }> }>().todos;
    const move = await h.cli(['todo-move', todo!.id, '--content', `${todoText}\u009b`]);
    expect([move.code, move.stderr]).toEqual([2, expect.stringMatching(/^error \[INVALID_INPUT\]: Invalid todo edit: content: .*U\+009B/)]);

    const contents = (await h.cli(['--json', 'list'])).json<{ memories: Memory[] }>().memories.map((m) => m.content).sort();
    expect(contents).toEqual([good, todoText].sort());

    const file = path.join(h.dir, 'bad-export.json');
    const row = (id: string, content: string) => ({ id, userId: 'bob', kind: 'fact', content, importance: 0.5, confidence: 1, source: 'manual', verified: true, core: false, status: 'active', provenance: { messageIds: [] }, language: 'zh', createdAt: at, updatedAt: at, accessCount: 0 });
    writeFileSync(file, JSON.stringify({ format: 'engram-export', version: 1, userId: 'bob', exportedAt: at, memories: [row('b-1', good), row('b-2', bad)], history: [], relations: [], profiles: [], todos: [], messages: [], settings: {} }));
    const imported = await h.cli(['--user', 'bob', 'import', file]);
    expect([imported.code, imported.stderr]).toEqual([2, expect.stringMatching(new RegExp(`^error \\[INVALID_INPUT\\]: .*memories\\.1\\.content: must not contain control characters: ${where.replace('+', '\\+')}.*\\(the record with id b-2\\)`))]);
    expect((await h.cli(['--user', 'bob', '--json', 'list'])).json<{ memories: Memory[] }>().memories).toEqual([]);
  });
});
