/** Engram's public API: create an engine, its building blocks, the domain types, and the errors. */
export { createMemory, type CreateMemoryOptions } from './memory.js';
export type { MemoryEngine, ListOptions } from './memory-engine.js';
export * from './domain/index.js';
export { EngramError, NotFoundError, InvalidInputError, EmbedderMismatchError, StaleVersionError, ERROR_CODES, type ErrorCode } from './errors.js';
export { systemClock, randomIds, silentLogger, consoleLogger, type Clock, type IdGenerator, type Logger } from './deps.js';

export { openSqliteStore, type SqliteStoreOptions } from './store/sqlite/sqlite-store.js';
export type { Store, MemoryQuery, MessageQuery, SearchHit, ExtractionRun } from './store/store.js';
export { createBundledEmbedder, createOpenAICompatibleEmbedder, createHashEmbedder, createThreadedEmbedder, type Embedder } from './embedders/index.js';
export { createModel, createOpenAICompatibleModel, resolveModelFromEnv, createUsageMeter, type LanguageModelPort, type ModelClient } from './models/index.js';
export { definePrompt, promptRef, type PromptModule } from './prompts/prompt.js';
export { callbackNotifier, type Notifier, type Reminder } from './notify/notifier.js';
export { webhookNotifier, verifyWebhookSignature } from './notify/webhook-notifier.js';

export { RECIPES, type RecipeName } from './recall/recipes.js';
export { RecallConfig } from './recall/recall-config.js';
export type { ScoreParts } from './recall/rank.js';
export type { RecalledMemory, RecallOptions } from './pipelines/recall.js';
export type { FoundMessage, MessageScoreParts, SearchMessagesOptions } from './pipelines/search-messages.js';
export type { ContextBlock, ContextItem, ContextOptions } from './context/build-context.js';
export type { ExtractReport } from './pipelines/extract-session.js';
export { DEFAULT_DECAY_POLICY, DecayPolicy } from './lifecycle/decay-policy.js';
export { decay } from './lifecycle/decay.js';
export { watchMirror, type MirrorWatcher, type WatchMirrorOptions } from './mirror/watch-mirror.js';
export type { UserExport } from './pipelines/export-import.js';
export type { TodoEdit } from './pipelines/edit-todo.js';
export type { UpdateOptions } from './pipelines/edit-memory.js';
export type { CompleteTodoOptions } from './pipelines/complete-todo.js';
