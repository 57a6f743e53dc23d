/** `engram/client`: a typed client of the Engram HTTP service. */
export { createClient, type EngramClient, type ClientOptions, type ListMemoriesOptions, type VersionOptions } from './client.js';
export type { Memory, RecalledMemory, ContextBlock, HistoryEvent, Relation, Message, Session, Profile, Todo, ExtractReport, ApiKey, MemoryPageResult } from './client.js';
export { EngramHttpError } from './errors.js';
