import type { Command } from 'commander';
import { InvalidInputError } from '../errors.js';
import type { CliIo } from './io.js';
import { globalsOf } from './runtime.js';

/** `engram serve` (`npm start`): the HTTP API, the scheduler and the web page until SIGTERM/SIGINT. */
export function registerServe(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('run the HTTP service: API, docs, web page, background extraction and reminders')
    .option('--port <n>', 'port (env PORT) (default: 8787)')
    .option('--host <addr>', 'address (env HOST) (default: 127.0.0.1)')
    .action(async (o: { port?: string; host?: string }, command: Command) => {
      const g = globalsOf(command);
      const port = o.port === undefined ? undefined : Number(o.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new InvalidInputError(`--port must be a port number, got "${o.port}"`);
      // Loaded on demand: the other commands never pay for the HTTP stack's import time.
      const { startServer } = await import('../server/serve.js');
      const server = await startServer({ port, host: o.host, db: g.db, embedder: g.embedder, env: io.env });
      io.stdout(
        [
          `Engram is listening on ${server.url}`,
          `  API docs     ${server.url}/docs`,
          `  OpenAPI      ${server.url}/openapi.json`,
          `  health       ${server.url}/health`,
          `  web page     ${server.url}/`,
          server.protected
            ? '  keys         required: Authorization: Bearer <key> (ENGRAM_ADMIN_KEY creates keys: POST /v1/keys)'
            : '  keys         none configured: open to anyone on this machine (set ENGRAM_ADMIN_KEY to require keys)',
          '',
        ].join('\n'),
      );
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          io.stderr(`${signal}: finishing in-flight work and closing the database…\n`);
          void server.close().then(resolve);
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      });
    });
}
