import type { ForgottenPort } from './ports/forgotten.js';
import type { LifecyclePort } from './ports/lifecycle.js';
import type { MemoriesPort } from './ports/memories.js';
import type { MessagesPort } from './ports/messages.js';
import type { ProfilesPort } from './ports/profiles.js';
import type { RelationsPort } from './ports/relations.js';
import type { SessionsPort } from './ports/sessions.js';
import type { SettingsPort } from './ports/settings.js';
import type { TodosPort } from './ports/todos.js';
import type { VectorsPort } from './ports/vectors.js';

export type * from './ports/store-types.js';
export type { ForgottenPort, LifecyclePort, MemoriesPort, MessagesPort, ProfilesPort, RelationsPort, SessionsPort, SettingsPort, TodosPort, VectorsPort };
export type { KeyStore, ApiKey, StoredApiKey } from './ports/keys.js';
export type { RestoredMessage } from './ports/forgotten.js';

/**
 * The storage port: the intersection of the role ports in ./ports/ (each with its contract suite
 * in ./contract/). Every method is scoped by userId: no method returns or touches another user's
 * rows, except the scheduler scans named so (sessionsWithBacklog, sessionsToSummarize,
 * dueReminders, userIds, deleteExpiredMessages, deleteExpiredForgotten, pendingVectors). Every change to a memory writes a
 * history event in the same transaction. Pipelines should take the roles they use, not all of it.
 */
export interface Store
  extends MemoriesPort,
    VectorsPort,
    MessagesPort,
    SessionsPort,
    TodosPort,
    ProfilesPort,
    RelationsPort,
    SettingsPort,
    ForgottenPort,
    LifecyclePort<Store> {}
