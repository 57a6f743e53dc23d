// Times `engram migrate` SQLite → SQLite on a generated store (Chinese and English users).
// Usage: npx tsx scripts/measure-migrate.ts [users] [memoriesPerUser]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bufferIo } from '../src/cli/io.js';
import { run } from '../src/cli/run.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';

const users = Number(process.argv[2] ?? 20);
const perUser = Number(process.argv[3] ?? 100);
const dir = mkdtempSync(path.join(tmpdir(), 'engram-measure-migrate-'));
const [from, to] = [path.join(dir, 'from.db'), path.join(dir, 'to.db')];
const store = openSqliteStore({ path: from });
await store.bindEmbedder({ id: 'test@4', dimensions: 4 });
const at = new Date('2026-01-01T00:00:00Z');
for (let u = 0; u < users; u++) {
  const userId = `user-${u}`;
  const zh = u % 2 === 0;
  await store.transaction(async (tx) => {
    for (let i = 0; i < perUser; i++) {
      const content = zh ? `用户第${i}条记忆：喜欢在杭州喝龙井茶` : `Memory ${i}: likes green tea in Hangzhou`;
      const vector = new Float32Array([Math.cos(i), Math.sin(i), 0.1, 0.2]);
      await tx.insertMemory({ id: `${userId}-m${i}`, userId, content, kind: 'fact', importance: 0.5, confidence: 1, source: 'manual', verified: true, core: false, status: 'active', provenance: { messageIds: [] }, language: zh ? 'zh' : 'en', createdAt: at, updatedAt: at, accessCount: 0, embedderId: 'test@4' }, vector, { actor: 'user' });
    }
    await tx.appendMessages(userId, 's', Array.from({ length: perUser }, (_, i) => ({ id: `${userId}-x${i}`, role: 'user' as const, content: zh ? `第${i}条消息` : `message ${i}`, createdAt: new Date(at.getTime() + i * 1000), vector: new Float32Array([1, 0, 0, 0]), embedderId: 'test@4' })));
  });
}
await store.close();
const io = bufferIo({});
const started = performance.now();
const code = await run(['--json', 'migrate', '--from', from, '--to', to], io);
const ms = performance.now() - started;
const report = JSON.parse(io.out() || '{}') as { verified?: boolean };
console.log(JSON.stringify({ users, memoriesPerUser: perUser, messagesPerUser: perUser, exitCode: code, verified: report.verified, ms: Math.round(ms), rowsPerSecond: Math.round((users * perUser * 2) / (ms / 1000)) }));
if (code !== 0) console.error(io.err());
rmSync(dir, { recursive: true, force: true });
