import type { Message, Session } from './domain/conversation.js';
import type { CompleteTodoOptions } from './pipelines/complete-todo.js';
import type { TodoEdit } from './pipelines/edit-todo.js';
import type { UpdateOptions } from './pipelines/edit-memory.js';
import type { ChangeContext, HistoryEvent } from './domain/history.js';
import type { Memory, MemoryPatch, NewMemoryInput } from './domain/memory.js';
import type { Profile, Relation } from './domain/profile.js';
import type { ExtractionSettings, SettingsPatch } from './domain/settings.js';
import type { Todo } from './domain/todo.js';
import type { ContextBlock, ContextOptions } from './context/build-context.js';
import type { ExtractionStats } from './extraction/stats.js';
import type { UsageSnapshot } from './models/usage.js';
import type { AppendOptions, AppendResult } from './pipelines/append-messages.js';
import type { MemoryDeps } from './pipelines/deps.js';
import type { ExtractReport } from './pipelines/extract-session.js';
import type { CompressionReport } from './pipelines/compress-memories.js';
import type { DeliveryReport } from './pipelines/deliver-reminders.js';
import type { ForgetTopicReport } from './pipelines/forget.js';
import type { ForgetSessionOptions, ForgetSessionReport } from './pipelines/forget-messages.js';
import type { ErasedForget, ForgottenSummary, UndoneForget } from './domain/forgotten.js';
import type { LearningInput } from './pipelines/record-learning.js';
import type { LifecycleProgress, LifecycleReport } from './pipelines/run-lifecycle.js';
import type { RecalledMemory, RecallOptions } from './pipelines/recall.js';
import type { ReindexOptions, ReindexResult } from './pipelines/reindex.js';
import type { VectorStatus } from './store/store.js';
import type { RelateInput } from './pipelines/relate-memories.js';
import type { ReplyReport } from './pipelines/report-reply.js';
import type { FoundMessage, SearchMessagesOptions } from './pipelines/search-messages.js';
import type { ProfileReport } from './pipelines/update-profile.js';
import type { SummarizeReport } from './pipelines/summarize-session.js';
import type { SyncReport } from './pipelines/sync-mirror.js';
import type { UserExport } from './pipelines/export-import.js';
import type { ImportOptions, ImportReport } from './pipelines/import-user.js';
import type { MemoryQuery, ExtractionRun } from './store/store.js';

export type ListOptions = Omit<MemoryQuery, 'notExpiredAt'> & { includeExpired?: boolean };

/** The library's face. Every method is scoped to one user; no method returns another user's data. */
export interface MemoryEngine {
  readonly deps: MemoryDeps;

  // ---- semantic memories ----
  /** `change` says who added it, for its history. @default the user */
  add(input: NewMemoryInput, change?: Partial<ChangeContext>): Promise<Memory>;
  get(userId: string, id: string): Promise<Memory>;
  list(options: ListOptions): Promise<Memory[]>;
  /**
   * A change without an actor is recorded as the user's. `options.ifVersion`: the memoryVersion()
   * the patch was made against; a memory changed since is left as it is (PRECONDITION_FAILED).
   * Decay and reinforcement since (importance alone) pass unless the patch sets importance.
   */
  update(userId: string, id: string, patch: MemoryPatch, change?: Partial<ChangeContext>, options?: UpdateOptions): Promise<Memory>;
  /** Soft delete (restorable). `options.ifVersion` as for update. */
  delete(userId: string, id: string, change?: Partial<ChangeContext>, options?: UpdateOptions): Promise<Memory>;
  /** Brings back a soft-deleted memory. `options.ifVersion` as for update. */
  restore(userId: string, id: string, change?: Partial<ChangeContext>, options?: UpdateOptions): Promise<Memory>;
  /** Really erases the memory, its vector and keyword rows (forget one memory). `options.ifVersion` as for update. */
  purge(userId: string, id: string, change?: Partial<ChangeContext>, options?: UpdateOptions): Promise<void>;
  history(userId: string, id: string): Promise<HistoryEvent[]>;
  /** supports / contradicts / refines / supersedes / derived-from links of a memory. */
  relations(userId: string, id: string): Promise<Relation[]>;
  /** Links two memories of one user (supports / contradicts / refines with a strength, …). */
  relate(input: RelateInput): Promise<Relation>;
  /** Removes one relation by its id. */
  unrelate(userId: string, relationId: string): Promise<void>;

  // ---- recalling ----
  recall(options: RecallOptions): Promise<RecalledMemory[]>;
  context(options: ContextOptions): Promise<ContextBlock>;
  /**
   * The topic a user's message will ask to be forgotten once recorded (`appendMessages` acts on
   * it), or undefined: a door keeps the turn's memories out of its prompt meanwhile. A bare name
   * ("forget tacos") asks only of someone remembered by that name; `time`: what was said at a time
   * ("forget everything I told you yesterday"), `topic` the time as said.
   */
  forgetRequest(options: { userId: string; sessionId?: string; content: string }): Promise<{ topic: string; time?: boolean } | undefined>;
  searchMessages(options: SearchMessagesOptions): Promise<FoundMessage[]>;

  // ---- conversations and remembering ----
  /** Stores conversation messages (idempotent by id); never waits for extraction. */
  appendMessages(options: AppendOptions): Promise<AppendResult>;
  /** The last `size` messages of a session, oldest first: the working window for the caller's prompt. @default 30 */
  workingWindow(userId: string, sessionId: string, size?: number): Promise<Message[]>;
  getSession(userId: string, sessionId: string): Promise<Session>;
  /** Marks a session ended; its extraction and episode summary run in the background. */
  endSession(userId: string, sessionId: string): Promise<void>;
  /** Extracts a session's new messages now and reports what was done (seed 002's manual trigger). */
  extract(userId: string, sessionId: string): Promise<ExtractReport>;
  extractionRuns(userId: string, sessionId: string): Promise<ExtractionRun[]>;
  /** After the assistant replied: reinforces the recalled memories that shaped the reply (seed 001). */
  reportReply(input: { userId: string; message: string; reply: string; recalledIds: readonly string[] }): Promise<ReplyReport>;
  getSettings(userId: string): Promise<ExtractionSettings>;
  /** Settings for one user, or the global defaults with userId "*". */
  setSettings(userId: string, patch: SettingsPatch): Promise<ExtractionSettings>;

  // ---- layers ----
  /** Writes an episode summary for the session's messages not yet summarised. */
  summarize(userId: string, sessionId: string): Promise<SummarizeReport>;
  /** The current core profile, or null before the first one. */
  profile(userId: string): Promise<Profile | null>;
  profileVersions(userId: string): Promise<Profile[]>;
  /** Rewrites the profile now (force) or when due. */
  updateProfile(userId: string, options?: { force?: boolean }): Promise<ProfileReport>;
  /** `change` says who recorded it (the assistant through MCP: source `assistant`). @default the system */
  recordLearning(input: LearningInput, change?: Partial<ChangeContext>): Promise<Memory>;
  recallLearnings(input: { userId: string; task: string; limit?: number }): Promise<RecalledMemory[]>;

  // ---- lifecycle ----
  /** Decay, deletion and review for one user or everyone (idempotent). */
  runLifecycle(options?: { userId?: string; onProgress?: LifecycleProgress }): Promise<LifecycleReport>;
  /** Merges old, rarely used memories of a kind (needs a model). */
  compress(userId: string): Promise<CompressionReport[]>;
  /** Todos, earliest due first; a todo whose memory is deleted only with `live: false`. */
  listTodos(options: { userId: string; completed?: boolean; dueBefore?: Date; limit?: number; live?: boolean }): Promise<Todo[]>;
  /**
   * Changes an open todo: its words, its time (as said: `when: "下午四点"`, or `dueAt`), its
   * reminder, its repeat; its memory follows, with a history entry. A new reminder time re-arms it.
   */
  editTodo(userId: string, id: string, edit: TodoEdit, change?: Partial<ChangeContext>): Promise<Todo>;
  /** Marks a todo done; a repeating one moves to its next occurrence unless `series` ends it. */
  /** `change` says who completed it, for its memory's history. @default the user */
  completeTodo(userId: string, id: string, options?: CompleteTodoOptions, change?: Partial<ChangeContext>): Promise<Todo>;
  deleteTodo(userId: string, id: string): Promise<void>;
  /** Delivers due reminders through the configured notifier, each once. */
  deliverReminders(): Promise<DeliveryReport>;

  // ---- forgetting, mirror, export ----
  /** Forgets everything about a user, really erased. Returns rows removed per table. */
  forget(options: { userId: string }): Promise<Record<string, number>>;
  /** Forgets memories and episodes about a topic, and rewrites the profile without it. */
  forgetTopic(userId: string, topic: string): Promise<ForgetTopicReport>;
  /** Forgets one conversation: its raw messages and episode summaries, really erased. */
  forgetSession(options: ForgetSessionOptions): Promise<ForgetSessionReport>;
  /**
   * What requests in conversation forgot ("忘掉我前女友的事", "forget what I told you yesterday") that
   * can still be undone: kept `FORGET_UNDO_DAYS`, then erased for good. Newest first.
   */
  forgottenOnRequest(userId: string): Promise<ForgottenSummary[]>;
  /** Brings back what such a request forgot: its messages, memories, todos, and the profile before it. `id`: the asking message's. */
  undoForgotten(userId: string, id: string): Promise<UndoneForget>;
  /** Erases what such a request forgot at once, rather than when its undo time ends. */
  eraseForgotten(userId: string, id: string): Promise<ErasedForget>;
  /** Reads memory.md / learnings.md edits back into the database, then rewrites the files. */
  syncMirror(userId: string): Promise<SyncReport>;
  exportUser(userId: string): Promise<UserExport>;
  /** Restores an export as one user (the file's, or `options.userId`): every row becomes theirs, taken ids are re-issued. */
  importUser(data: unknown, options?: ImportOptions): Promise<ImportReport>;

  // ---- running ----
  /** Starts the background scheduler (extraction on silence, episodes, profile, reminders, daily lifecycle). @default 30000 */
  startScheduler(intervalMs?: number): void;
  stopScheduler(): Promise<void>;
  /** One scheduler pass, for callers with their own timer (or tests with a manual clock). */
  tick(): Promise<ExtractReport[]>;
  /** Resolves when background work started so far has finished. */
  idle(): Promise<void>;
  /** Counters of this process and the model's usage per prompt. */
  stats(): { extraction: ExtractionStats; usage?: UsageSnapshot };
  /**
   * Checks the store's vectors come from this engine's embedder, as the first call would: binds a
   * fresh store, re-embeds a store of an earlier version of it (`Embedder.supersedes`, waiting for
   * that), and throws EMBEDDER_MISMATCH for any other. For a server, to do this at start.
   */
  ready(): Promise<void>;
  /** Re-embeds everything with this engine's embedder (after changing embedders). */
  reindex(options?: ReindexOptions): Promise<ReindexResult>;
  /** Whether every row has a vector from the bound embedder; `complete: false` after an interrupted reindex. */
  reindexStatus(): Promise<VectorStatus>;
  /** Writes an online, consistent copy of the database to `path` (writers keep going meanwhile). */
  backup(options: { path: string }): Promise<{ path: string; pages: number }>;
  close(): Promise<void>;
}
