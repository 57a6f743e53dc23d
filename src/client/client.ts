import type { z } from 'zod';
import type { RepeatInput } from '../domain/recurrence.js';
import type { ErrorCode } from '../errors.js';
import type {
  ContextDto, ErasedForgetDto, ForgottenRequestDto, HistoryEventDto, MemoryDto, UndoneForgetDto, MemoryPage, MessageDto, ProfileDto, RecalledDto, RelationDto, SessionDto, TodoDto,
} from '../server/schemas.js';
import type { ExtractionSettings, SettingsPatch } from '../domain/settings.js';
import type { MemoryKind, MemoryPatch, MemoryStatus, NewMemoryInput } from '../domain/memory.js';
import type { RecipeName } from '../recall/recipes.js';
import type { ExtractReport as EngineExtractReport } from '../pipelines/extract-session.js';
import type { ForgottenOnRequest } from '../pipelines/forget-asked.js';
import { EngramHttpError } from './errors.js';

export type Memory = z.infer<typeof MemoryDto>;
export type RecalledMemory = z.infer<typeof RecalledDto>;
export type ContextBlock = z.infer<typeof ContextDto>;
export type HistoryEvent = z.infer<typeof HistoryEventDto>;
export type Relation = z.infer<typeof RelationDto>;
export type Message = z.infer<typeof MessageDto>;
export type Session = z.infer<typeof SessionDto>;
export type Profile = z.infer<typeof ProfileDto>;
export type Todo = z.infer<typeof TodoDto>;
/** A request in conversation that forgot something, undoable for a while. */
export type ForgottenSummary = z.infer<typeof ForgottenRequestDto>;
export type UndoneForget = z.infer<typeof UndoneForgetDto>;
export type ErasedForget = z.infer<typeof ErasedForgetDto>;
export type MemoryPageResult = z.infer<typeof MemoryPage>;
/** The engine's report, as it arrives over HTTP (it has no dates, so the wire shape is the same). */
export type ExtractReport = EngineExtractReport;
export interface ReplyReport { used: Array<{ id: string; reason: string }>; ignored: string[]; decidedBy: string }
export interface ApiKey { id: string; tenantId: string; boundUserId?: string; name?: string; createdAt: string; revokedAt?: string }

export interface ClientOptions {
  /** e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** The admin key acting in a tenant (X-Engram-Tenant). */
  tenant?: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

export interface ListMemoriesOptions {
  userId: string;
  q?: string;
  kinds?: readonly MemoryKind[];
  statuses?: readonly MemoryStatus[];
  core?: boolean;
  from?: Date | string;
  to?: Date | string;
  sort?: 'createdAt' | 'updatedAt' | 'importance' | 'happenedAt';
  order?: 'asc' | 'desc';
  cursor?: string;
  limit?: number;
}

const iso = (d: Date | string): string => (d instanceof Date ? d.toISOString() : d);
const seg = (s: string): string => encodeURIComponent(s);

/**
 * A typed client of the Engram HTTP API, with the MemoryEngine's method names where they make
 * sense. Dates arrive as ISO strings; every failure is an EngramHttpError with the server's code.
 */
/** A change to one version of a memory: `ifVersion` is its `version` as it was read. */
export interface VersionOptions {
  /** @default none: the change applies to the memory as it is now */
  ifVersion?: string;
}

const ifMatch = (options: VersionOptions): Record<string, string> => (options.ifVersion === undefined ? {} : { 'if-match': `"${options.ifVersion}"` });

export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = {
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    ...(options.tenant ? { 'x-engram-tenant': options.tenant } : {}),
  };

  async function call<T>(method: string, path: string, body?: unknown, query?: Record<string, string | number | boolean | undefined>, extra: Record<string, string> = {}): Promise<T> {
    const qs = query ? Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&') : '';
    let res: Response;
    try {
      res = await doFetch(`${base}${path}${qs ? `?${qs}` : ''}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (cause) {
      throw new EngramHttpError(0, 'NETWORK', `Could not reach ${base}: ${cause instanceof Error ? cause.message : String(cause)}`, undefined, undefined, { cause });
    }
    const type = res.headers.get('content-type') ?? '';
    const payload: unknown = type.includes('json') ? await res.json() : await res.text();
    if (!res.ok) {
      const e = (payload as { error?: { code?: string; message?: string; details?: Record<string, unknown>; requestId?: string } } | null)?.error;
      throw new EngramHttpError(res.status, (e?.code as ErrorCode | 'INTERNAL' | undefined) ?? (res.status >= 500 ? 'INTERNAL' : 'INVALID_INPUT'), e?.message ?? `HTTP ${res.status}`, e?.details, e?.requestId);
    }
    return payload as T;
  }
  const u = (userId: string) => `/v1/users/${seg(userId)}`;
  const m = (userId: string, id: string) => `${u(userId)}/memories/${seg(id)}`;
  const s = (userId: string, sessionId: string) => `${u(userId)}/sessions/${seg(sessionId)}`;

  return {
    health: () => call<{ status: string }>('GET', '/health'),
    listUsers: async () => (await call<{ items: Array<{ userId: string }> }>('GET', '/v1/users')).items.map((x) => x.userId),

    // ---- semantic memories ----
    add: ({ userId, ...input }: NewMemoryInput) => call<Memory>('POST', `${u(userId)}/memories`, input),
    get: (userId: string, id: string) => call<Memory>('GET', m(userId, id)),
    list: (o: ListMemoriesOptions) =>
      call<MemoryPageResult>('GET', `${u(o.userId)}/memories`, undefined, {
        q: o.q, kind: o.kinds?.join(','), status: o.statuses?.join(','), core: o.core, from: o.from && iso(o.from), to: o.to && iso(o.to), sort: o.sort, order: o.order, cursor: o.cursor, limit: o.limit,
      }),
    /**
     * Changes fields of a memory. `ifVersion`: the `version` of the memory as it was read; when it
     * has changed since, nothing is changed and this throws EngramHttpError 412 PRECONDITION_FAILED.
     */
    update: (userId: string, id: string, patch: MemoryPatch, options: VersionOptions = {}) =>
      call<Memory>('PATCH', m(userId, id), patch, undefined, ifMatch(options)),
    /** Soft delete (restorable). `ifVersion` as for update: a memory changed since is left as it is (412). */
    delete: async (userId: string, id: string, options: VersionOptions = {}) => (await call<{ memory: Memory }>('DELETE', m(userId, id), undefined, undefined, ifMatch(options))).memory,
    /** Brings back a soft-deleted memory. `ifVersion` as for update. */
    restore: (userId: string, id: string, options: VersionOptions = {}) => call<Memory>('POST', `${m(userId, id)}/restore`, undefined, undefined, ifMatch(options)),
    /** Really erases a memory. `ifVersion` as for update. */
    purge: async (userId: string, id: string, options: VersionOptions = {}): Promise<void> => void (await call('POST', `${m(userId, id)}/purge`, undefined, undefined, ifMatch(options))),
    history: async (userId: string, id: string) => (await call<{ items: HistoryEvent[] }>('GET', `${m(userId, id)}/history`)).items,
    relations: async (userId: string, id: string) => (await call<{ items: Relation[] }>('GET', `${m(userId, id)}/relations`)).items,
    /** Links `sourceId` to `targetId` ("A supports B"). */
    relate: ({ userId, sourceId, ...o }: { userId: string; sourceId: string; targetId: string; type: Relation['type']; strength?: number; reason?: string }) =>
      call<Relation>('POST', `${m(userId, sourceId)}/relations`, o),
    /** Removes one link of the memory `memoryId`. */
    unrelate: async (userId: string, memoryId: string, relationId: string): Promise<void> => void (await call('DELETE', `${m(userId, memoryId)}/relations/${seg(relationId)}`)),

    // ---- recalling ----
    recall: async ({ userId, ...o }: { userId: string; query: string; limit?: number; recipe?: RecipeName; kinds?: MemoryKind[] }) =>
      (await call<{ items: RecalledMemory[] }>('POST', `${u(userId)}/search`, o)).items,
    context: ({ userId, ...o }: { userId: string; query: string; tokenBudget?: number; sessionId?: string; language?: 'zh' | 'en' }) => call<ContextBlock>('POST', `${u(userId)}/context`, o),
    /** After the assistant replied: reinforces the recalled memories that shaped the reply (seed 001). */
    reportReply: ({ userId, ...o }: { userId: string; message: string; reply: string; recalledIds: readonly string[] }) => call<ReplyReport>('POST', `${u(userId)}/replies`, o),

    // ---- conversations ----
    appendMessages: (o: { userId: string; sessionId: string; messages: Array<{ role: 'user' | 'assistant' | 'system'; content: string; id?: string; callerId?: string; createdAt?: Date | string }> }) =>
      call<{ appended: Message[]; skipped: number; forgotten?: ForgottenOnRequest[] }>('POST', `${s(o.userId, o.sessionId)}/messages`, { messages: o.messages.map((x) => ({ ...x, ...(x.createdAt ? { createdAt: iso(x.createdAt) } : {}) })) }),
    listSessions: async (userId: string) => (await call<{ items: Session[] }>('GET', `${u(userId)}/sessions`)).items,
    getSession: (userId: string, sessionId: string) => call<Session>('GET', s(userId, sessionId)),
    workingWindow: async (userId: string, sessionId: string, size?: number) => (await call<{ items: Message[] }>('GET', `${s(userId, sessionId)}/window`, undefined, { size })).items,
    endSession: async (userId: string, sessionId: string): Promise<void> => void (await call('POST', `${s(userId, sessionId)}/end`)),
    extract: (userId: string, sessionId: string) => call<ExtractReport>('POST', `${s(userId, sessionId)}/extract`),
    getSettings: (userId: string) => call<ExtractionSettings>('GET', `${u(userId)}/settings`),
    setSettings: (userId: string, patch: SettingsPatch) => call<ExtractionSettings>('PUT', `${u(userId)}/settings`, patch),

    // ---- layers ----
    profile: async (userId: string) => (await call<{ profile: Profile | null }>('GET', `${u(userId)}/profile`)).profile,
    profileVersions: async (userId: string) => (await call<{ items: Profile[] }>('GET', `${u(userId)}/profile/versions`)).items,
    episodes: async (userId: string) => (await call<{ items: Memory[] }>('GET', `${u(userId)}/episodes`)).items,
    recordLearning: ({ userId, ...o }: { userId: string; task: string; steps: string[]; tools?: string[]; error?: string; fix?: string; importance?: number }) => call<Memory>('POST', `${u(userId)}/learnings`, o),
    recallLearnings: async ({ userId, task, limit }: { userId: string; task: string; limit?: number }) => (await call<{ items: RecalledMemory[] }>('GET', `${u(userId)}/learnings`, undefined, { task, limit })).items,

    // ---- todos ----
    addTodo: ({ userId, ...o }: { userId: string; content: string; dueAt?: Date | string; remindAt?: Date | string; repeat?: RepeatInput }) =>
      call<Todo>('POST', `${u(userId)}/todos`, { content: o.content, ...(o.dueAt ? { dueAt: iso(o.dueAt) } : {}), ...(o.remindAt ? { remindAt: iso(o.remindAt) } : {}), ...(o.repeat ? { repeat: o.repeat } : {}) }),
    listTodos: async ({ userId, completed, limit }: { userId: string; completed?: boolean; limit?: number }) => (await call<{ items: Todo[] }>('GET', `${u(userId)}/todos`, undefined, { completed, limit })).items,
    /** Moves or rewords an open todo: `when` as said ("下午四点", "Monday"), or `dueAt` / `remindAt` / `repeat` outright (null clears); `remind`: when the reminder comes, as said ("提前半小时", "the day before", "下周一早上", "Monday at 9am"). */
    editTodo: (userId: string, id: string, change: { content?: string; when?: string; dueAt?: Date | string | null; remindAt?: Date | string | null; repeat?: RepeatInput | null; remind?: string }) =>
      call<Todo>('PATCH', `${u(userId)}/todos/${seg(id)}`, {
        ...(change.content !== undefined ? { content: change.content } : {}),
        ...(change.when !== undefined ? { when: change.when } : {}),
        ...(change.dueAt !== undefined ? { dueAt: change.dueAt === null ? null : iso(change.dueAt) } : {}),
        ...(change.remindAt !== undefined ? { remindAt: change.remindAt === null ? null : iso(change.remindAt) } : {}),
        ...(change.repeat !== undefined ? { repeat: change.repeat } : {}),
        ...(change.remind !== undefined ? { remind: change.remind } : {}),
      }),
    completeTodo: (userId: string, id: string, options: { series?: boolean } = {}) => call<Todo>('POST', `${u(userId)}/todos/${seg(id)}/complete`, undefined, options.series ? { series: true } : undefined),
    deleteTodo: async (userId: string, id: string): Promise<void> => void (await call('DELETE', `${u(userId)}/todos/${seg(id)}`)),

    // ---- forgetting, export ----
    forget: async ({ userId }: { userId: string }) => (await call<{ counts: Record<string, number> }>('POST', `${u(userId)}/forget`, { all: true })).counts,
    forgetTopic: (userId: string, topic: string) => call<{ forgotten: string[]; profileVersion?: number }>('POST', `${u(userId)}/forget`, { topic }),
    /** What requests in conversation forgot ("忘掉…", "forget…"), undoable for 7 days, newest first. */
    forgottenOnRequest: async (userId: string) => (await call<{ items: ForgottenSummary[] }>('GET', `${u(userId)}/forgotten`)).items,
    undoForgotten: (userId: string, id: string) => call<UndoneForget>('POST', `${u(userId)}/forgotten/${seg(id)}/undo`),
    eraseForgotten: (userId: string, id: string) => call<ErasedForget>('DELETE', `${u(userId)}/forgotten/${seg(id)}`),
    exportUser: (userId: string) => call<Record<string, unknown>>('GET', `${u(userId)}/export`),
    importUser: (userId: string, data: unknown) => call<{ memories: number; messages: number }>('POST', `${u(userId)}/import`, data),

    // ---- keys (admin) ----
    createKey: (o: { tenantId: string; boundUserId?: string; name?: string }) => call<{ key: string; record: ApiKey }>('POST', '/v1/keys', o),
    listKeys: async (tenantId?: string) => (await call<{ items: ApiKey[] }>('GET', '/v1/keys', undefined, { tenantId })).items,
    revokeKey: (id: string) => call<ApiKey>('DELETE', `/v1/keys/${seg(id)}`),
  };
}

export type EngramClient = ReturnType<typeof createClient>;
