import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bufferIo } from './io.js';
import { run } from './run.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

describe('engram keys', () => {
  it('creates (shown once), lists and revokes keys in the database file', async () => {
    const made = await h.cli(['--json', 'keys', 'create', '--tenant', 'acme', '--bind-user', '李明', '--name', '网页']);
    expect(made.code).toBe(0);
    const { key, record } = made.json<{ key: string; record: { id: string; tenantId: string; boundUserId: string } }>();
    expect(key).toMatch(/^ek_/);
    expect(record).toMatchObject({ tenantId: 'acme', boundUserId: '李明' });
    const list = await h.cli(['keys', 'list']);
    expect(list.stdout).toContain(record.id);
    expect(list.stdout).toContain('user=李明');
    expect(list.stdout).not.toContain(key);
    const revoked = await h.cli(['keys', 'revoke', record.id]);
    expect(revoked.stdout).toContain('revoked=');
    expect((await h.cli(['keys', 'revoke', 'key_nope'])).stderr).toMatch(/^error \[NOT_FOUND\]/);
    expect((await h.cli(['keys', 'create', '--tenant', 'bad tenant'])).code).toBe(2);
  });

  it.each([['  '], ['\u3000'], ['*']])('refuses to bind a key to %j, a user no request could act for, and stores no key', async (user) => {
    const made = await h.cli(['keys', 'create', '--tenant', 'acme', '--bind-user', user]);
    expect(made.code).not.toBe(0);
    expect(made.stderr).toMatch(/^error \[(?:INVALID_INPUT|FORBIDDEN)\]/);
    expect((await h.cli(['keys', 'list'])).stdout).toBe('no keys\n');
  });
});

describe('engram serve', () => {
  it('prints the URLs, answers on them, and stops cleanly on SIGTERM', async () => {
    const db = path.join(mkdtempSync(path.join(tmpdir(), 'engram-serve-cli-')), 'e.db');
    const io = bufferIo({ ENGRAM_DB: db, ENGRAM_EMBEDDER: 'hash' });
    const exit = run(['serve', '--port', '0'], io);
    let url: string | undefined;
    for (let i = 0; i < 600 && !url; i++) {
      url = /listening on (http:\/\/\S+)/.exec(io.out())?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 50));
    }
    expect(url).toBeDefined();
    for (const p of ['/docs', '/health', '/openapi.json']) expect(io.out()).toContain(`${url}${p}`);
    expect(io.out()).toMatch(/open to anyone on this machine/);
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' });
    process.emit('SIGTERM');
    expect(await exit).toBe(0);
    expect(io.err()).toMatch(/SIGTERM/);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it('rejects a bad port', async () => {
    const r = await h.cli(['serve', '--port', 'eighty']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--port/);
  });
});
