import type { Message } from '../../domain/conversation.js';
import type { KeywordSearch, MessageQuery, NewStoredMessage, SearchHit, VectorSearch } from './store-types.js';

/** The raw conversation layer: messages in their sessions, searchable, expiring. */
export interface MessagesPort {
  /**
   * Appends messages to a session in order, creating the session on first use. Idempotent by
   * (userId, message id): messages already stored are skipped. Returns the newly stored ones.
   */
  appendMessages(userId: string, sessionId: string, messages: ReadonlyArray<NewStoredMessage>): Promise<Message[]>;
  listMessages(query: MessageQuery): Promise<Message[]>;
  /**
   * Messages within `radius` positions of the given ones in their sessions (the given ones
   * included). Unlike `listMessages`, the messages may be shared with the store's own cache, and
   * then frozen: read them, copy one (`ownMessage`) to change it. The message search reads a few
   * hundred per context build.
   */
  messageNeighbours(userId: string, ids: readonly string[], radius: number): Promise<Message[]>;
  searchMessageVector(query: Omit<VectorSearch, 'statuses'> & { sessionId?: string }): Promise<SearchHit[]>;
  searchMessageKeyword(query: Omit<KeywordSearch, 'statuses'> & { sessionId?: string }): Promise<SearchHit[]>;
  /** The stored vectors of the given messages, exactly as written. */
  messageVectorsOf(userId: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Each given message's similarity to `vector`, as `vectorScores` gives for memories (within 0.02). */
  messageVectorScores(userId: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>>;
  /**
   * `messageNeighbours`, and each neighbour's similarity to `vector` as `messageVectorScores` gives
   * it, in one call: a message search scores every turn it reads, and a store that finds the
   * neighbours can score them without looking each one up again.
   */
  scoredNeighbours(userId: string, ids: readonly string[], radius: number, vector: Float32Array): Promise<{ messages: Message[]; vectorScores: Map<string, number> }>;
  /** Deletes messages whose expiresAt has passed; returns how many. */
  deleteExpiredMessages(now: Date): Promise<number>;
  /** Really erases the given messages of a user (row, vector, keyword row); returns how many. */
  purgeMessages(userId: string, ids: readonly string[]): Promise<number>;
}
