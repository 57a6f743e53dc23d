import { describe, expect, it } from 'vitest';
import { EngramError } from '../../errors.js';
import { isConnectionLoss, isReadOnly, wasNotSent } from './pg-reconnect.js';

describe('what may be sent again after a lost connection', () => {
  it('sends reads again, never writes, locks or notifications', () => {
    expect(isReadOnly('SELECT * FROM memories WHERE user_id = $1')).toBe(true);
    expect(isReadOnly('  with x AS (SELECT 1) SELECT * FROM x')).toBe(true);
    expect(isReadOnly('INSERT INTO settings VALUES ($1)')).toBe(false);
    expect(isReadOnly('UPDATE sessions SET lease_owner = NULL')).toBe(false);
    expect(isReadOnly('SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE')).toBe(false);
    expect(isReadOnly('SELECT 1 FROM sessions WHERE id = $1 FOR SHARE')).toBe(false);
    expect(isReadOnly("SELECT pg_notify('c', '记忆')")).toBe(false);
    expect(isReadOnly('WITH d AS (DELETE FROM todos RETURNING id) SELECT * FROM d')).toBe(false);
  });

  it('knows a lost or refused connection, through the EngramError that wraps it', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(isConnectionLoss(refused)).toBe(true);
    expect(isConnectionLoss(new EngramError('STORE_BUSY', 'lost', { cause: shutdown }))).toBe(true);
    expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isConnectionLoss(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(false);
    expect(wasNotSent(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(wasNotSent(new Error('Connection terminated unexpectedly'))).toBe(false);
  });
});
