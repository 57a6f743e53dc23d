import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { bufferIo } from '../src/cli/io.js';
import { run } from '../src/cli/run.js';
import { silentLogger } from '../src/deps.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { startServer, type RunningServer } from '../src/server/serve.js';

/**
 * The README's examples, run as written against the server `npm start` runs (issue 8 and 9 "Done
 * when"): every curl line of the HTTP API section, the `openai` client example of the chat proxy
 * (against a mock model server on loopback) and the desktop MCP config. Only the address, the
 * database path and the printed key are substituted, so the README cannot drift from the code.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The text of a `##`/`###` section, up to the next heading of the same or a higher level. */
function section(title: string): string {
  const lines = README.split('\n');
  // "# comment" lines inside code blocks are not headings.
  let fenced = false;
  const heading = lines.map((l) => {
    if (l.startsWith('```')) fenced = !fenced;
    return !fenced && /^#+ /u.test(l) ? l.indexOf(' ') : 0;
  });
  const start = lines.findIndex((l, i) => heading[i]! >= 2 && l.replace(/^#+ /u, '') === title);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const level = heading[start]!;
  const end = lines.findIndex((_, i) => i > start && heading[i]! > 0 && heading[i]! <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

function codeBlocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'gu'))].map((m) => m[1]!);
}

/** Shell words of one command line: '…' and "…" quoting, a backslash-newline joins lines, an unquoted # starts a comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'" || ch === '"') {
      const close = line.indexOf(ch, i + 1);
      word = (word ?? '') + line.slice(i + 1, close);
      i = close;
    } else if (/\s/u.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === '#' && word === undefined) break;
    else word = (word ?? '') + ch;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The curl commands of a sh block, continuation lines joined. */
function curls(block: string): string[][] {
  return block
    .replace(/\\\n\s*/gu, ' ')
    .split('\n')
    .map(shellWords)
    .filter((w) => w[0] === 'curl');
}

interface Curl {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}
function parseCurl(words: string[], base: string): Curl {
  const c: Curl = { url: '', method: 'GET', headers: {} };
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-s') continue;
    else if (w === '-X') c.method = words[++i]!;
    else if (w === '-H') {
      const [k, ...v] = words[++i]!.split(':');
      c.headers[k!.trim().toLowerCase()] = v.join(':').trim();
    } else if (w === '-d') {
      c.body = words[++i]!;
      if (c.method === 'GET') c.method = 'POST';
    } else if (w.startsWith('-')) throw new Error(`the README uses a curl option this test does not know: ${w}`);
    else c.url = w.replace(/^(http:\/\/)?localhost:8787/u, base);
  }
  return c;
}

async function send(c: Curl): Promise<{ status: number; body: unknown }> {
  const res = await fetch(c.url, { method: c.method, headers: c.headers, ...(c.body === undefined ? {} : { body: c.body }) });
  const text = await res.text();
  return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}

const servers: RunningServer[] = [];
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const c of closers) await c();
});

/** What `npm start` runs (`engram serve`), on a free loopback port and a temp database. */
async function npmStart(env: Record<string, string> = {}): Promise<{ server: RunningServer; db: string }> {
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'engram-readme-')), 'engram.db');
  const server = await startServer({ port: 0, host: '127.0.0.1', env: { ENGRAM_DB: db, ENGRAM_EMBEDDER: 'hash', ...env }, logger: silentLogger });
  servers.push(server);
  return { server, db };
}

describe('README: using it as a library', () => {
  it('the example runs as written (pasted into a module of its own): the message is stored and remembered, and the script ends by itself', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'engram-readme-library-'));
    const db = path.join(dir, 'engram.db');
    const block = codeBlocks(section('Using it as a library'), 'ts')[0]!;
    // The package's name is its built entry; the source entry is the same module before the build.
    const code = block.replace("from 'engram'", `from ${JSON.stringify(path.join(ROOT, 'src/index.ts'))}`).replace("path: 'engram.db'", `path: ${JSON.stringify(db)}`);
    expect(code).not.toContain("'engram'");
    expect(code).toContain(db);
    const script = path.join(dir, 'example.mts');
    writeFileSync(script, code);
    // Ends by itself: the example closes what it opened (its scheduler included).
    await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, timeout: 60_000 });
    const store = openSqliteStore({ path: db });
    try {
      expect((await store.listMessages({ userId: 'u1' })).map((m) => m.content)).toContain('我下周要去东京出差');
      expect((await store.listMemories({ userId: 'u1' })).map((m) => m.content).join('\n')).toContain('东京');
    } finally {
      await store.close();
    }
  });
});

describe('README: HTTP API examples (issue 8)', () => {
  it('every curl line of the first block answers 2xx with what the comment says, in Chinese and English', async () => {
    const { server } = await npmStart();
    const block = codeBlocks(section('HTTP API'), 'sh')[0]!;
    const commands = curls(block).map((w) => parseCurl(w, server.url));
    expect(commands.length).toBeGreaterThanOrEqual(6);
    const answers = [];
    for (const c of commands) {
      const r = await send(c);
      expect(r.status, `${c.method} ${c.url} -> ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(300);
      answers.push(r.body as Record<string, unknown>);
    }
    expect(answers[0]).toMatchObject({ content: '用户喜欢猫', kind: 'preference', userId: 'li-ming' });
    expect(JSON.stringify(answers[1])).toContain('用户喜欢猫');
    expect(answers.find((a) => 'added' in a)).toMatchObject({ skipped: expect.any(Boolean), reason: expect.any(String) });
    expect((answers.at(-1)!.items as Array<{ kind: string }>).every((m) => ['preference', 'plan'].includes(m.kind))).toBe(true);
  });

  it('the keys block: the admin key creates a tenant key bound to li-ming, which then reads li-ming and no one else', async () => {
    const { server } = await npmStart({ ENGRAM_ADMIN_KEY: 'change-me-to-a-long-secret' });
    const block = codeBlocks(section('HTTP API'), 'sh').find((b) => b.includes('/v1/keys'))!;
    const [create, read] = curls(block).map((w) => parseCurl(w, server.url));
    const made = await send(create!);
    expect(made.status).toBe(201);
    const key = (made.body as { key: string }).key;
    expect(key).toMatch(/^ek_/u);
    expect(made.body).toMatchObject({ record: { tenantId: 'acme', boundUserId: 'li-ming' } });
    expect(read!.headers.authorization).toBe('Bearer ek_…');
    const seen = await send({ ...read!, headers: { authorization: `Bearer ${key}` } });
    expect(seen).toMatchObject({ status: 200, body: { items: [] } });
    // As the text under the block says: a key bound to a user gets 403 for any other.
    expect((await send({ ...read!, url: read!.url.replace('/li-ming/', '/wang-fang/'), headers: { authorization: `Bearer ${key}` } })).status).toBe(403);
    expect((await send({ ...read!, headers: { authorization: 'Bearer ek_not-a-key' } })).status).toBe(401);
  });
});

/** A model server on loopback that answers every chat completion with `reply` and records the requests. */
async function mockUpstream(reply: string): Promise<{ url: string; bodies: Array<{ model: string; messages: Array<{ role: string; content: string }> }> }> {
  const bodies: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as { model: string; messages: Array<{ role: string; content: string }> };
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}/v1`, bodies };
}

describe('README: the chat proxy with the official openai client (issue 9)', () => {
  it('the key from `engram keys create`, then the openai example as written: the system message carries the memory', async () => {
    const upstream = await mockUpstream('可以看看猫爬架和猫粮。');
    const { server, db } = await npmStart({ ENGRAM_LLM_BASE_URL: upstream.url, ENGRAM_LLM_MODEL: 'deepseek-chat' });
    const proxy = section('OpenAI-compatible chat proxy');
    const cli = codeBlocks(proxy, 'sh')[0]!.split('\n').map(shellWords).find((w) => w[1] === 'engram')!;
    expect(cli.slice(0, 2)).toEqual(['npx', 'engram']);
    const io = bufferIo({ ENGRAM_DB: db, ENGRAM_EMBEDDER: 'hash' });
    expect(await run([...cli.slice(2), '--json'], io)).toBe(0);
    const key = (JSON.parse(io.out()) as { key: string }).key;
    // The hash embedder of tests matches words, not meaning: the memory shares the question's words.
    await server.memory.add({ userId: 'li-ming', kind: 'preference', content: '用户喜欢猫，常买宠物用品' });

    const code = codeBlocks(proxy, 'ts')[0]!.replace('http://127.0.0.1:8787/v1', `${server.url}/v1`);
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, env: { ...process.env, ENGRAM_KEY: key } });
    expect(stdout.trim()).toBe('可以看看猫爬架和猫粮。');
    // The chat call (the engine's own model calls, e.g. judging which memories the reply used, go there too).
    const sent = upstream.bodies.find((b) => b.messages.at(-1)?.content === '推荐一些宠物用品')!;
    expect(sent.model).toBe('deepseek-chat');
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(sent.messages[0]!.content).toContain('你是贴心的助手。');
    expect(sent.messages[0]!.content).toContain('用户喜欢猫');
  });
});

describe('README: the desktop MCP config (issue 9)', () => {
  it('spawns the configured command as written and serves the fifteen tools, in Chinese and English', async () => {
    const json = codeBlocks(section('MCP server'), 'json')[0]!;
    const config = JSON.parse(json) as { mcpServers: { engram: { command: string; args: string[] } } };
    const { command, args } = config.mcpServers.engram;
    const db = path.join(mkdtempSync(path.join(tmpdir(), 'engram-readme-mcp-')), 'engram.db');
    const resolved = args.map((a) => a.replace('/path/to/engram', ROOT).replace('/home/me/engram.db', db));
    expect(resolved).toContain(db);
    // Started in another folder, as a desktop client does.
    const transport = new StdioClientTransport({ command: command === 'node' ? process.execPath : command, args: resolved, cwd: path.dirname(db), env: { ...process.env, ENGRAM_EMBEDDER: 'hash' } as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'desktop', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools).toHaveLength(15);
      await client.callTool({ name: 'add_memory', arguments: { content: '用户喜欢猫', kind: 'preference' } });
      await client.callTool({ name: 'add_memory', arguments: { content: 'The user works as a nurse in Leeds', kind: 'identity' } });
      const text = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      expect(text(await client.callTool({ name: 'search_memory', arguments: { query: '猫' } }))).toContain('用户喜欢猫');
      expect(text(await client.callTool({ name: 'search_memory', arguments: { query: 'nurse' } }))).toContain('nurse in Leeds');
    } finally {
      await client.close();
    }
  });
});
