/** `engram/server`: the HTTP service as a library (mount it, extend it, or start it). */
export { createApp, type CreateAppOptions } from './app.js';
export { startServer, DEFAULT_HOST, DEFAULT_PORT, type StartServerOptions, type RunningServer } from './serve.js';
export { authenticate, requireAdmin, scopedUserId, externalUserId, assertUserAllowed, DEFAULT_TENANT, type AppEnv, type AuthInfo } from './auth.js';
export { createEventHub, type EventHub } from './event-hub.js';
export { sqliteKeyStore, sqliteHandleOf } from './keys/sqlite-key-store.js';
export { pgKeyStore } from './keys/pg-key-store.js';
export { keyStoreOf } from './keys/key-store-of.js';
export type { KeyStore, ApiKey, NewApiKey } from './keys/key-store.js';
export { STATUS_OF, type ErrorBody } from './on-error.js';
export { present, type Wire } from './wire.js';
export { newRouter, userOf } from './route-kit.js';
export type { EngramEvent, EventSink } from '../events.js';
export { createChatProxy, type ChatProxy, type ChatProxyOptions } from '../proxy/chat-proxy.js';
export { mountDoors, type DoorsOptions } from './doors.js';
export { createActivity, noActivity, type Activity, type ActivityOptions } from '../util/activity.js';
export { idleCollection, type IdleCollectionOptions } from '../util/idle-collector.js';
