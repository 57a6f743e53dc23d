import type { Command } from 'commander';
import { keyStoreOf } from '../server/keys/key-store-of.js';
import { assertBindableUser } from '../server/auth.js';
import type { KeyStore } from '../server/keys/key-store.js';
import type { CliIo } from './io.js';
import { withEngine } from './runtime.js';

async function withKeys(io: CliIo, command: Command, fn: (keys: KeyStore, json: boolean) => Promise<void>): Promise<void> {
  await withEngine(io, command, async ({ engine, json }) => {
    await fn(keyStoreOf(engine.deps.store), json);
  });
}

const line = (k: { id: string; tenantId: string; boundUserId?: string; name?: string; createdAt: Date; revokedAt?: Date }): string =>
  `${k.id}  tenant=${k.tenantId}${k.boundUserId ? `  user=${k.boundUserId}` : ''}${k.name ? `  name=${k.name}` : ''}  created=${k.createdAt.toISOString()}${k.revokedAt ? `  revoked=${k.revokedAt.toISOString()}` : ''}\n`;

/** `engram keys create|list|revoke`: API keys of the HTTP service, in the same database file. */
export function registerKeys(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('API keys of the HTTP service (tenants, optionally bound to one user)');
  keys
    .command('create')
    .description('create a key; it is printed once and only its hash is stored')
    .requiredOption('--tenant <id>', 'tenant the key belongs to')
    .option('--bind-user <id>', 'the only user this key may act for')
    .option('--name <label>', 'a label for people')
    .action(async (o: { tenant: string; bindUser?: string; name?: string }, command: Command) =>
      withKeys(io, command, async (store, json) => {
        if (o.bindUser !== undefined) assertBindableUser(o.tenant, o.bindUser);
        const { key, record } = await store.create({ tenantId: o.tenant, ...(o.bindUser ? { boundUserId: o.bindUser } : {}), ...(o.name ? { name: o.name } : {}) });
        io.stdout(json ? `${JSON.stringify({ key, record })}\n` : `${key}\n${line(record)}(shown once: store it now)\n`);
      }),
    );
  keys
    .command('list')
    .description('list keys (never the keys themselves)')
    .option('--tenant <id>', 'only this tenant')
    .action(async (o: { tenant?: string }, command: Command) =>
      withKeys(io, command, async (store, json) => {
        const all = await store.list(o.tenant);
        io.stdout(json ? `${JSON.stringify(all)}\n` : all.map(line).join('') || 'no keys\n');
      }),
    );
  keys
    .command('revoke <id>')
    .description('revoke a key: requests with it get 401 from now on')
    .action(async (id: string, _o: unknown, command: Command) =>
      withKeys(io, command, async (store, json) => {
        const k = await store.revoke(id);
        io.stdout(json ? `${JSON.stringify(k)}\n` : line(k));
      }),
    );
}
