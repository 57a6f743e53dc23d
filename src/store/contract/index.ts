import { describeConditionalUpdateContract } from './conditional-update.contract.js';
import { describeForgottenContract } from './forgotten.contract.js';
import { describeIsolationContract } from './isolation.contract.js';
import { describeKeysContract } from './keys.contract.js';
import { describeProfilesContract, describeRelationsContract, describeSettingsContract } from './layers.contract.js';
import { describeLifecycleContract } from './lifecycle.contract.js';
import { describeMemoriesContract } from './memories.contract.js';
import { describeMemoryQueriesContract } from './memory-queries.contract.js';
import { describeMessagesContract } from './messages.contract.js';
import { describeSessionsContract } from './sessions.contract.js';
import { describeTodosContract } from './todos.contract.js';
import { describeVectorsContract } from './vectors.contract.js';
import type { StoreFactory } from './fixtures.js';

export type { ContractStore, StoreFactory } from './fixtures.js';
export { snapshotUser } from './snapshot.js';
export { fillUser } from './lifecycle.contract.js';

/**
 * Every role port's contract suite, against one adapter (STYLE habit 5). `factory` opens a fresh,
 * empty store (and its key store, when it has one) for each test; adding an adapter is one call:
 * `runStoreContracts('postgres', async () => ({ store, keys, close }))`.
 */
export function runStoreContracts(name: string, factory: StoreFactory, options: { keys?: boolean } = {}): void {
  describeMemoriesContract(name, factory);
  describeMemoryQueriesContract(name, factory);
  describeConditionalUpdateContract(name, factory);
  describeVectorsContract(name, factory);
  describeMessagesContract(name, factory);
  describeSessionsContract(name, factory);
  describeTodosContract(name, factory);
  describeProfilesContract(name, factory);
  describeRelationsContract(name, factory);
  describeSettingsContract(name, factory);
  describeLifecycleContract(name, factory);
  describeIsolationContract(name, factory);
  describeForgottenContract(name, factory);
  if (options.keys ?? true) describeKeysContract(name, factory);
}
