import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { withEngine } from './runtime.js';

/**
 * `engram mcp --user U [--db path]`: Engram as an MCP server over stdio, for desktop clients.
 * stdout carries only the protocol; logs go to stderr. Runs until the client closes stdin.
 */
export function registerMcp(program: Command, io: CliIo): void {
  program
    .command('mcp')
    .description('serve the memory of --user to an MCP client over stdio (for desktop assistants)')
    .action((_options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId }) => {
        // Loaded on use: every other command starts without the MCP SDK.
        const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
        const { boundUser, createMcpServer } = await import('../mcp/mcp-server.js');
        const server = createMcpServer({ memory: engine, resolveUser: boundUser(userId) });
        const transport = new StdioServerTransport();
        const closed = new Promise<void>((resolve) => {
          server.server.onclose = resolve;
          // The SDK's stdio transport does not watch for the end of stdin; a client that goes away ends the server.
          process.stdin.once('end', () => void server.close().then(resolve, resolve));
        });
        await server.connect(transport);
        io.stderr(`engram mcp: serving user "${userId}" over stdio\n`);
        await closed;
      }),
    );
}
