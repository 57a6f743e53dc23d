import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { MemoryEngine } from '../memory-engine.js';
import { createMcpServer } from './mcp-server.js';
import type { ResolveUser } from './tool-kit.js';

/**
 * Engram's MCP server over Streamable HTTP, stateless: every POST gets a fresh server bound to the
 * caller's user resolver (from the API key), answers with JSON, and is closed. Nothing is kept
 * between requests, so no state can pass from one key to another. GET and DELETE (server-sent
 * streams and session ends) have no meaning without sessions and answer 405.
 */
export function createMcpHttpHandler(options: { memory: MemoryEngine }): (request: Request, resolveUser: ResolveUser, parsedBody?: unknown) => Promise<Response> {
  // parsedBody: the JSON body when a middleware already read the request's stream.
  return async (request, resolveUser, parsedBody) => {
    if (request.method !== 'POST') {
      return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, POST only' }, id: null }, { status: 405, headers: { allow: 'POST' } });
    }
    const server = createMcpServer({ memory: options.memory, resolveUser });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    } finally {
      await server.close();
    }
  };
}
