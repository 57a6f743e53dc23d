export * from './memory.js';
export * from './memory-version.js';
export * from './history.js';

export * from './operations.js';
export * from './conversation.js';
export * from './todo.js';
export * from './settings.js';
export * from './profile.js';
export * from './episode.js';
export * from './user-id.js';
export * from './json-value.js';
export * from './forgotten.js';
