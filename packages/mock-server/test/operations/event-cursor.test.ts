/**
 * The event center's continuation tokens: a token continues the query it came from, and nothing else.
 */
import type { Event } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../src/errors.js';
import { EventCursor, type EventQuery, queryIdentity } from '../../src/operations/event-cursor.js';
import { rejection } from '../helpers.js';

const SECRET = 'cursor-signing-secret-7d2e41';
const last = { id: 'evt_000123', event_timestamp: '2026-03-01T12:00:00.000Z' } as Event;
const queryA: EventQuery = { searchText: 'bucket', filters: [{ key: 'eventType', values: ['mutation'] }] };
const queryB: EventQuery = { searchText: 'bucket', filters: [{ key: 'eventType', values: ['clickops'] }] };

function expectNoSecret(error: HttpError, token: string): void {
  const shown = JSON.stringify({ message: error.message, issues: error.issues });
  expect(shown).not.toContain(SECRET);
  expect(shown).not.toContain(token);
}

describe('the event cursor', () => {
  it('round-trips: a token decodes to the last event of its page, for the same query', async () => {
    const cursor = new EventCursor(SECRET);
    const token = await cursor.encode(queryA, last);
    expect(await cursor.decode(token, queryA)).toEqual({ timestamp: last.event_timestamp, id: last.id });
    // Another codec with the same secret (a mock after reset) still accepts it.
    expect(await new EventCursor(SECRET).decode(token, queryA)).toEqual({
      timestamp: last.event_timestamp,
      id: last.id,
    });
  });

  it('refuses an altered token with a 400 naming body.continuationToken, without secrets', async () => {
    const cursor = new EventCursor(SECRET);
    const token = await cursor.encode(queryA, last);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    for (const altered of [`${header}.${payload}.${flipped}`, `${token}x`, 'not-a-token', '']) {
      const error = await rejection(cursor.decode(altered, queryA));
      expect([error.status, error.code]).toEqual([400, 'validation_failed']);
      expect(error.issues?.[0]).toMatchObject({ location: 'body', path: 'continuationToken' });
      expect(error.issues?.[0]?.message).toMatch(/not issued by this server or was altered/);
      expectNoSecret(error, token);
    }
    // Signed with another secret: refused the same way.
    const foreign = await new EventCursor('another-secret').encode(queryA, last);
    expect((await rejection(cursor.decode(foreign, queryA))).status).toBe(400);
  });

  it('refuses a token of another query with a 400 saying so, without secrets', async () => {
    const cursor = new EventCursor(SECRET);
    const token = await cursor.encode(queryA, last);
    const error = await rejection(cursor.decode(token, queryB));
    expect([error.status, error.code]).toEqual([400, 'validation_failed']);
    expect(error.issues?.[0]).toMatchObject({ location: 'body', path: 'continuationToken' });
    expect(error.issues?.[0]?.message).toMatch(/belongs to a different query/);
    expectNoSecret(error, token);
  });

  it("binds a token to the query's members, whatever their order, and to nothing else", async () => {
    const cursor = new EventCursor(SECRET);
    const token = await cursor.encode(queryA, last);
    // The same query with its members in another order (at every depth) continues it.
    const reordered: EventQuery = {
      filters: [{ values: ['mutation'], key: 'eventType' }],
      searchText: 'bucket',
    };
    expect(await cursor.decode(token, reordered)).toEqual({ timestamp: last.event_timestamp, id: last.id });
    expect(await queryIdentity(reordered)).toBe(await queryIdentity(queryA));
    // No query at all is the empty query.
    expect(await queryIdentity(undefined)).toBe(await queryIdentity({}));
    // Any other window, filter or search text is another query.
    for (const other of [
      { ...queryA, startTime: '2026-03-01T00:00:00.000Z' },
      { ...queryA, searchText: 'b' },
      {},
    ]) {
      expect(await queryIdentity(other)).not.toBe(await queryIdentity(queryA));
      expect((await rejection(cursor.decode(token, other))).issues?.[0]?.message).toMatch(
        /belongs to a different query/,
      );
    }
  });
});
