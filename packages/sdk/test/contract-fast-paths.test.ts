/**
 * The fast paths of the contract's repeated schemas (`contract/formats.ts`, issue 25): a timestamp,
 * a record id, a URL, an open enumeration or a backend configuration is accepted or refused exactly
 * as zod's own parser of the same schema does, with the same output and the same issues (messages
 * included). The reference is the schema's clone, which has zod's own parser and the same definition.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fuzzRuns, fuzzSeed } from '../../../tests/support/fuzz.js';
import { unknownRecord, webUrl } from '../src/contract/formats.js';
import { NanoTimestamp, ObjectId, openEnum, Timestamp } from '../src/contract/primitives.js';
import { WorkspaceSummary } from '../src/contract/workspaces.js';

type Schema = z.ZodMiniType;

/** Parses `input` with the fast schema and with zod's own parser of it: both answer the same. */
function expectSame(fast: Schema, input: unknown, plain: Schema = fast.clone()): void {
  const got = fast.safeParse(input);
  const want = plain.safeParse(input);
  expect({ input, success: got.success }).toEqual({ input, success: want.success });
  if (got.success && want.success) expect(got.data).toStrictEqual(want.data);
  else expect(got.error?.issues).toStrictEqual(want.error?.issues);
}

/** Every string made from `valid` by replacing one character with one of `chars`, or cutting it short. */
function oneOffs(valid: string, chars: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < valid.length; i++) {
    out.push(valid.slice(0, i), valid.slice(0, i) + valid.slice(i + 1));
    for (const c of chars) out.push(valid.slice(0, i) + c + valid.slice(i + 1));
  }
  return out;
}

const NOT_STRINGS = [undefined, null, 0, 1.5, true, {}, [], ['2024-05-01T12:30:00.000Z']];

describe('Timestamp and NanoTimestamp', () => {
  const cases: Array<[Schema, string]> = [
    [Timestamp, '2024-05-01T12:30:00.000Z'],
    [NanoTimestamp, '2024-05-01T12:30:00.123456789Z'],
  ];

  it('refuse a well-formed timestamp that is no calendar instant with the same message as before', () => {
    for (const [schema, valid] of cases) {
      for (const bad of [
        '2023-02-29',
        '2024-02-30',
        '2024-04-31',
        '2024-13-01',
        '2024-00-10',
        '2024-01-00',
      ]) {
        const result = schema.safeParse(bad + valid.slice(10));
        expect(result.error?.issues).toEqual([
          { code: 'custom', path: [], message: 'expected a real calendar date and time' },
        ]);
      }
      for (const time of ['24:00:00', '23:60:00', '23:59:60']) {
        const result = schema.safeParse(`${valid.slice(0, 11)}${time}${valid.slice(19)}`);
        expect(result.error?.issues.map((issue) => issue.message)).toEqual([
          'expected a real calendar date and time',
        ]);
      }
      expect(schema.safeParse('2024-02-29T23:59:59.999Z'.slice(0, 20) + valid.slice(20)).success).toBe(true);
    }
  });

  it('refuse a badly formed one naming the format (and the calendar when the digits are not a date)', () => {
    expect(Timestamp.safeParse('2024-05-01T12:30:00Z').error?.issues.map((issue) => issue.message)).toEqual([
      'expected an ISO 8601 UTC timestamp with millisecond precision, like 2024-05-01T12:30:00.000Z',
    ]);
    expect(Timestamp.safeParse('yesterday').error?.issues.map((issue) => issue.message)).toEqual([
      'expected an ISO 8601 UTC timestamp with millisecond precision, like 2024-05-01T12:30:00.000Z',
      'expected a real calendar date and time',
    ]);
  });

  it('answer as zod does for every one-character change, cut and non-string', () => {
    for (const [schema, valid] of cases) {
      const variants = [
        ...oneOffs(valid, '09-:.TZtz \u0660\uff10a/'),
        `${valid}0`,
        ` ${valid}`,
        `${valid}\n`,
      ];
      for (const input of [valid, ...variants, ...NOT_STRINGS]) expectSame(schema, input);
    }
  });

  it('answer as zod does on timestamp-shaped strings of any digits', () => {
    const digits = (n: number) =>
      fc.integer({ min: 0, max: 10 ** n - 1 }).map((value) => String(value).padStart(n, '0'));
    const shaped = fc
      .tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2), digits(3), digits(9))
      .chain(([y, mo, d, h, mi, s, ms, ns]) =>
        fc.constantFrom(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`, `${y}-${mo}-${d}T${h}:${mi}:${s}.${ns}Z`),
      );
    fc.assert(
      fc.property(shaped, (value) => {
        expectSame(Timestamp, value);
        expectSame(NanoTimestamp, value);
      }),
      { numRuns: fuzzRuns(3000), seed: fuzzSeed(2511) },
    );
  });
});

describe('ObjectId', () => {
  it('answers as zod does for ids, near-ids and non-strings', () => {
    const valid = '65a1f0c2e4b0a1b2c3d4e5f6';
    const variants = oneOffs(valid, 'aAfFgG09 \u0010\u0019\u0040\u0060\u0066\u0047');
    for (const input of [valid, valid.toUpperCase(), `${valid}0`, ...variants, ...NOT_STRINGS])
      expectSame(ObjectId, input);
    expect(ObjectId.safeParse('\u0010'.repeat(24)).error?.issues[0]?.message).toBe(
      'expected a 24-character hexadecimal record id',
    );
  });
});

describe('open enumerations', () => {
  it('take any string unchanged and refuse anything else as before', () => {
    const schema = openEnum(['github', 'gitlab']);
    const plain = z.union([z.enum(['github', 'gitlab']), z.string()]);
    for (const input of ['github', 'gitlab', 'GitHub', '', 'bitbucket', ...NOT_STRINGS])
      expectSame(schema, input, plain);
  });
});

describe('URLs (webUrl)', () => {
  const plain = z.url();
  const table = [
    'https://github.com/acme/infra-mobile-backend',
    'https://gitlab.example.com/acme/x/-/commit/0a1b2c',
    'http://localhost/x',
    'https://a-b.c-d/~x_y.z%20/',
    'HTTPS://GitHub.COM/Acme',
    'https://github.com',
    'https://github.com/',
    'https://a..b/',
    'https://.a.com/',
    'https://a.com./',
    'https://-a.com/',
    'https://a-.com/',
    'https://xn--a.com/',
    'https://xn--nxasmq6b.com/',
    'https://a--b.com/',
    'https://1.2.3.4/',
    'https://1.2.3.256/',
    'https://a.123/',
    'https://a.0x1f/',
    'https://999999999999/',
    'https://a.com:443/',
    'https://a.com:99999/',
    'https://user:pw@a.com/',
    'https://a.com/a b',
    'https://a.com/%zz',
    'https://a.com?q=1',
    'https://a.com/#f',
    'https://a.com/\\x',
    'https://exa\nmple.com/',
    'https://exa\tmple.com/',
    ' https://a.com/',
    'https://a.com/ ',
    'https://\u0430.com/',
    'https://\uff41.com/',
    'https://',
    'https:/a.com',
    'https:a.com',
    '//a.com/',
    'ftp://a.com/',
    'mailto:a@b.c',
    'javascript:alert(1)',
    'http://[::1]/',
    'not a url',
    '',
    ...NOT_STRINGS,
  ];

  it('accepts and refuses a table of URLs, edge cases included, exactly as z.url()', () => {
    for (const input of table) expectSame(webUrl(), input, plain);
    for (const input of table) expectSame(z.nullish(webUrl()), input, z.nullish(plain));
  });

  it('answers as z.url() on strings of URL characters', () => {
    const part = fc.stringMatching(/^[a-zA-Z0-9.\-_~%/:@?#[\]\\ \t\u0430]{0,12}$/);
    const url = fc
      .tuple(fc.constantFrom('https://', 'http://', 'HTTP://', 'ftp://', 'https:/', ''), part, part)
      .map(([scheme, host, path]) => `${scheme}${host}${path}`);
    fc.assert(
      fc.property(url, (value) => expectSame(webUrl(), value, plain)),
      { numRuns: fuzzRuns(3000), seed: fuzzSeed(2512) },
    );
  });
});

describe('backend configurations (unknownRecord)', () => {
  const plain = z.record(z.string(), z.unknown());
  class Config {
    bucket = 'b';
  }
  const withSymbol = { bucket: 'b', [Symbol('s')]: 1 };
  const hidden = Object.defineProperty({ bucket: 'b' }, 'secret', { value: 1, enumerable: false });

  it('accepts, copies and refuses exactly as z.record(z.string(), z.unknown())', () => {
    const table: unknown[] = [
      {},
      { bucket: 'acme', key: 'state.tfstate', encrypt: true, nested: { a: [1] } },
      JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'),
      JSON.parse('{"constructor": "x", "1": 2, "b": 3}'),
      Object.assign(Object.create(null), { a: 1 }),
      new Config(),
      withSymbol,
      hidden,
      new Map([['a', 1]]),
      new Date(0),
      [],
      ['a'],
      'config',
      ...NOT_STRINGS,
    ];
    for (const input of table) expectSame(unknownRecord(), input, plain);
  });

  it('answers with a copy, not the object it was given', () => {
    const config = { bucket: 'acme' };
    const parsed = unknownRecord().parse(config);
    expect(parsed).toEqual(config);
    expect(parsed).not.toBe(config);
  });
});

describe('a workspace summary with the fast paths', () => {
  it('reports a bad member of each kind at its path with the same message as before', () => {
    const item = {
      id: '65a1f0c2e4b0a1b2c3d4e5f6',
      accountId: '65a1f0c2e4b0a1b2c3d4e5f6',
      createdAt: '2024-02-30T00:00:00.000Z',
      updatedAt: '2024-05-01T12:30:00.000Z',
      workspaceId: 'not-an-id',
      workspaceName: 'w',
      repo: 'acme/x',
      repoUrl: 'https://exa mple.com/',
      vcsType: 7,
      runnerType: 'github-actions',
      iacType: 'terraform',
      backendSummary: {
        backendType: 's3',
        backendConfig: ['bucket'],
        iacStackId: 's',
        managedResourceCount: 0,
      },
      labels: [],
      runsCount: 0,
      isWorkflowManaged: false,
      guardrails: [],
    };
    const issues = WorkspaceSummary.safeParse(item).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.code, issue.message])).toEqual([
      ['createdAt', 'custom', 'expected a real calendar date and time'],
      ['workspaceId', 'invalid_format', 'expected a 24-character hexadecimal record id'],
      ['repoUrl', 'invalid_format', 'Invalid URL'],
      ['vcsType', 'invalid_union', 'Invalid input'],
      ['backendSummary.backendConfig', 'invalid_type', 'Invalid input: expected record, received array'],
    ]);
  });
});
