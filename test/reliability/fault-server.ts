import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fault server does with one chat-completions request. */
export type Fault =
  | { kind: 'answer'; content: string; delayMs?: number }
  | { kind: 'status'; status: 429 | 500 | 503 }
  | { kind: 'reset' }
  | { kind: 'hang' };

export interface FaultServer {
  baseURL: string;
  /** Queues the next answers; an empty queue answers 500 (so a forgotten fault is loud). */
  queue(...faults: Fault[]): void;
  /** Requests received so far. */
  requests: number;
  close(): Promise<void>;
}

function completion(content: string): string {
  return JSON.stringify({
    id: 'chatcmpl-fault', object: 'chat.completion', created: 1_764_000_000, model: 'fault-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  });
}

/** An OpenAI-compatible model server on 127.0.0.1 (a free port) that answers from a script of faults. */
export async function startFaultServer(): Promise<FaultServer> {
  const pending: Fault[] = [];
  const hanging = new Set<ServerResponse>();
  const state = { requests: 0 };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      state.requests++;
      const fault = pending.shift() ?? { kind: 'status', status: 500 };
      switch (fault.kind) {
        case 'status':
          res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.status === 429 ? { 'retry-after': '0' } : {}) });
          res.end(JSON.stringify({ error: { message: `fault ${fault.status}`, type: 'server_error' } }));
          return;
        case 'reset':
          req.socket.destroy();
          return;
        case 'hang':
          hanging.add(res);
          return;
        case 'answer': {
          const send = () => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(completion(fault.content));
          };
          if (fault.delayMs) setTimeout(send, fault.delayMs);
          else send();
        }
      }
    });
  };
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    queue: (...faults) => void pending.push(...faults),
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
