import {
  fieldIssuesFromZod,
  MAX_PAGE_SIZE,
  NanoTimestamp,
  ObjectId,
  objectIdToUuid,
  PageQuery,
  PathId,
  pathIdToObjectId,
  sortKeys,
  sortSchema,
  Timestamp,
  toTimestamp,
  Uuid,
  WORKSPACE_SORT_FIELDS,
} from '@iacm/sdk/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';

const hex24 = fc.stringMatching(/^[0-9a-fA-F]{24}$/);
const dates = fc.date({
  min: new Date('1970-01-01T00:00:00.000Z'),
  max: new Date('2999-12-31T23:59:59.999Z'),
  noInvalidDate: true,
});

describe('ObjectId', () => {
  it('accepts 24 hex digits of either case', () => {
    fc.assert(fc.property(hex24, (id) => ObjectId.safeParse(id).success));
  });

  it.each([
    ['23 digits', '65a1f0c2e4b0a1b2c3d4e5f'],
    ['25 digits', '65a1f0c2e4b0a1b2c3d4e5f6a'],
    ['a non-hex digit', '65a1f0c2e4b0a1b2c3d4e5fg'],
    ['a UUID', '3f0b9a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b'],
    ['an empty string', ''],
  ])('refuses %s', (_, id) => {
    const result = ObjectId.safeParse(id);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/24-character hexadecimal/);
  });

  it('refuses a number', () => {
    expect(ObjectId.safeParse(1234).success).toBe(false);
  });
});

describe('Uuid and PathId', () => {
  it('accepts lower-case UUIDs and refuses upper-case ones', () => {
    fc.assert(fc.property(fc.uuid(), (uuid) => Uuid.safeParse(uuid.toLowerCase()).success));
    expect(Uuid.safeParse('3F0B9A4E-2C1D-4E5F-8A9B-0C1D2E3F4A5B').success).toBe(false);
  });

  it('accepts in a path both a 24-hex id and a lower-case UUID, and nothing else', () => {
    expect(PathId.safeParse('65a1f0c2e4b0a1b2c3d4e5f6').success).toBe(true);
    expect(PathId.safeParse('3f0b9a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b').success).toBe(true);
    const bad = PathId.safeParse('workspace-1');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(
      'expected a 24-character hexadecimal record id or a lower-case UUID, received "workspace-1"',
    );
    expect(PathId.safeParse('3F0B9A4E-2C1D-4E5F-8A9B-0C1D2E3F4A5B').success).toBe(false);
    // A request's issue says what came once, though the schema's own message already says it.
    const input = { workspaceId: 'workspace-1' };
    const parsed = z.object({ workspaceId: PathId }).safeParse(input);
    if (parsed.success) throw new Error('expected a refusal');
    expect(fieldIssuesFromZod(parsed.error, 'path', input)[0]?.message).toBe(
      'path.workspaceId: expected a 24-character hexadecimal record id or a lower-case UUID, received "workspace-1"',
    );
  });

  it('maps a 24-hex id to a UUID and back to the same (lower-case) id', () => {
    fc.assert(
      fc.property(hex24, (id) => {
        const uuid = objectIdToUuid(id);
        return (
          Uuid.safeParse(uuid).success &&
          pathIdToObjectId(uuid) === id.toLowerCase() &&
          pathIdToObjectId(id) === id.toLowerCase()
        );
      }),
    );
  });

  it('finds no record id in a UUID that does not carry one, nor in a non-id', () => {
    expect(pathIdToObjectId('3f0b9a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b')).toBeUndefined();
    expect(pathIdToObjectId('nope')).toBeUndefined();
    expect(() => objectIdToUuid('nope')).toThrow(TypeError);
  });
});

describe('Timestamp', () => {
  it('accepts every instant written with millisecond precision in UTC', () => {
    fc.assert(fc.property(dates, (date) => Timestamp.safeParse(toTimestamp(date)).success));
  });

  it('refuses other precisions of the same instant', () => {
    fc.assert(
      fc.property(dates, (date) => {
        const iso = date.toISOString();
        const seconds = iso.replace(/\.\d{3}Z$/, 'Z');
        const micros = iso.replace(/Z$/, '000Z');
        return !Timestamp.safeParse(seconds).success && !Timestamp.safeParse(micros).success;
      }),
    );
  });

  it.each([
    ['an offset instead of Z', '2024-05-01T12:30:00.000+02:00'],
    ['a date only', '2024-05-01'],
    ['a day that does not exist', '2024-02-30T12:30:00.000Z'],
    ['hour 24', '2024-05-01T24:00:00.000Z'],
    ['epoch milliseconds', 1714566600000],
  ])('refuses %s', (_, value) => {
    expect(Timestamp.safeParse(value).success).toBe(false);
  });

  it('names the expected format in its message', () => {
    expect(Timestamp.safeParse('2024-05-01T12:30:00Z').error?.issues[0]?.message).toMatch(
      /millisecond precision/,
    );
  });
});

describe('NanoTimestamp', () => {
  it('accepts nine fractional digits in UTC and refuses three', () => {
    fc.assert(
      fc.property(dates, fc.integer({ min: 0, max: 999999 }), (date, extra) => {
        const nano = date.toISOString().replace(/Z$/, `${String(extra).padStart(6, '0')}Z`);
        return NanoTimestamp.safeParse(nano).success && !NanoTimestamp.safeParse(date.toISOString()).success;
      }),
    );
  });
});

describe('PageQuery', () => {
  it('accepts page and pageSize as numbers or decimal strings within bounds', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.integer({ min: 1, max: MAX_PAGE_SIZE }), (page, size) => {
        const fromText = PageQuery.parse({ page: String(page), pageSize: String(size) });
        const fromNumbers = PageQuery.parse({ page, pageSize: size });
        return fromText.page === page && fromText.pageSize === size && fromNumbers.pageSize === size;
      }),
    );
  });

  it.each([
    [{ pageSize: '0' }, 'pageSize'],
    [{ pageSize: String(MAX_PAGE_SIZE + 1) }, 'pageSize'],
    [{ page: '-1' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ page: '' }, 'page'],
    [{ limit: '10' }, ''],
  ])('refuses %j', (query, field) => {
    const result = PageQuery.safeParse(query);
    expect(result.success).toBe(false);
    expect(
      result.error?.issues.some(
        (i) => i.path.join('.') === field || (field === '' && i.code === 'unrecognized_keys'),
      ),
    ).toBe(true);
  });
});

describe('sort', () => {
  const schema = sortSchema(WORKSPACE_SORT_FIELDS);

  it('accepts the array form and the single-object form, reading keys in order', () => {
    const array = schema.parse([{ lastRunTime: { order: -1 } }, { workspaceName: { order: 1 } }]);
    const object = schema.parse({ lastRunTime: { order: -1 }, workspaceName: { order: 1 } });
    expect(sortKeys(array)).toEqual([
      ['lastRunTime', -1],
      ['workspaceName', 1],
    ]);
    expect(sortKeys(object)).toEqual(sortKeys(array));
  });

  it('keeps any list of distinct sortable fields in the order given', () => {
    const spec = fc.uniqueArray(fc.constantFrom(...WORKSPACE_SORT_FIELDS), { minLength: 1 });
    fc.assert(
      fc.property(
        spec,
        fc.array(fc.constantFrom(1 as const, -1 as const), { minLength: 6, maxLength: 6 }),
        (fields, orders) => {
          const keys = fields.map((f, i) => [f, orders[i]] as const);
          const parsed = schema.parse(keys.map(([f, order]) => ({ [f]: { order } })));
          return JSON.stringify(sortKeys(parsed)) === JSON.stringify(keys);
        },
      ),
    );
  });

  it.each([
    ['an unknown field', [{ updatedAt: { order: 1 } }]],
    ['an order of 0', [{ workspaceName: { order: 0 } }]],
    ['an order given as text', { workspaceName: { order: 'desc' } }],
    ['an empty object', {}],
    ['an empty array', []],
    ['a field twice', [{ workspaceName: { order: 1 } }, { workspaceName: { order: -1 } }]],
  ])('refuses %s', (_, value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });
});
