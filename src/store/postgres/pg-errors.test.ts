import { describe, expect, it } from 'vitest';
import { toPgStoreError } from './pg-db.js';

describe('PostgreSQL errors as Engram codes (no database needed)', () => {
  it.each([
    ['a client whose connection broke between two queries', new Error('Client has encountered a connection error and is not queryable')],
    ['a connection that ended mid-query', new Error('Connection terminated unexpectedly')],
    ['the server shutting the backend down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a deadlock', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
  ])('%s is STORE_BUSY: retry later', (_what, error) => {
    expect(toPgStoreError(error, 'SAVEPOINT engram_sp_1')).toMatchObject({ code: 'STORE_BUSY' });
  });

  it('a unique violation is CONFLICT, anything else STORE_FAILED with the cause kept', () => {
    expect(toPgStoreError(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toMatchObject({ code: 'CONFLICT' });
    const other = new Error('syntax error at or near "用户"');
    expect(toPgStoreError(other)).toMatchObject({ code: 'STORE_FAILED', cause: other });
  });
});
