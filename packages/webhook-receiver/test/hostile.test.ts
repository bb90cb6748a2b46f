/**
 * Hostile payloads (issue 13, M5): validation stops early and stays linear in the body, and nesting
 * is bounded, so that no delivery makes the receiver work for a minute, exhaust its memory, or hand a
 * handler a payload that breaks `JSON.stringify`. The tests that would exhaust memory on a regression
 * run in a child Node with a 512 MB heap and assert what the receiver accounted, never RSS or time.
 */
import {
  createWebhookReceiver,
  DEFAULT_MAX_DEPTH,
  generateNotification,
  type WebhookNotification,
  type WebhookRequest,
} from '@iacm/webhook-receiver';
import { describe, expect, it } from 'vitest';
import { json } from './helpers.js';
import { runInSmallHeap } from './small-heap.js';

/** A hang bound for the child-process tests (they only catch hangs; they never measure speed). */
const CHILD_BOUND = 120_000;

const receiver = createWebhookReceiver({ credentials: 'none' });

function post(body: string): WebhookRequest {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body };
}

/** A valid Drift delivery with one more member, `extra`, whose JSON text is `extra`. */
function withExtra(extra: string): string {
  return `${JSON.stringify(generateNotification('Drift')).slice(0, -1)},"extra":${extra}}`;
}

/** Arrays nested `levels` deep, as JSON text. */
function nested(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}

interface Accounted {
  bytes: number;
  status: number;
  code: string;
  issues: number;
  firstPath: string;
  lastPath: string;
  message: string;
}

/**
 * The child-script lines that post `body` (a JS expression, with the receiver's module in scope as
 * `mod`) to a receiver and return what it accounted.
 */
function accountedScript(body: string): string {
  return `
    const mod = await import(\`\${src}/index.ts\`);
    const receiver = mod.createWebhookReceiver({ credentials: 'none' });
    const body = ${body};
    const answer = await receiver.handle({ method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const json = JSON.parse(answer.body);
    return {
      bytes: Buffer.byteLength(body),
      status: answer.status,
      code: json.code,
      issues: json.issues.length,
      firstPath: json.issues[0].path,
      lastPath: json.issues.at(-1).path,
      message: json.message,
    };`;
}

describe('M5: validation stops at 100 issues and stays linear', () => {
  it(
    '0.97 MiB of 340,000 empty samples: 422 with 100 issues, found in the first 7 samples',
    async () => {
      const result = await runInSmallHeap<Accounted>(
        accountedScript(
          "JSON.stringify({ notificationType: 'Drift', samples: Array.from({ length: 340000 }, () => ({})) })",
        ),
      );
      expect(result.bytes).toBeGreaterThan(0.97 * 1024 * 1024);
      expect(result.status).toBe(422);
      expect(result.code).toBe('invalid_payload');
      expect(result.issues).toBe(100);
      // The envelope lacks 9 members and each empty Drift sample 13: the 100th issue is the last one
      // of the 7th sample, and nothing after it was looked at.
      expect(result.firstPath).toBe('accountId');
      expect(result.lastPath).toBe('samples[6].drifts');
      expect(result.message).toContain('validation stopped at 100 issues');
    },
    CHILD_BOUND,
  );

  it(
    'every other notification type, and one sample with 250,000 empty drifts, stop the same way',
    async () => {
      const other = await runInSmallHeap<Accounted>(
        accountedScript(
          "JSON.stringify({ notificationType: 'GhostResource', samples: Array.from({ length: 340000 }, () => ({})) })",
        ),
      );
      expect(other).toMatchObject({ status: 422, code: 'invalid_payload', issues: 100 });
      // 9 for the envelope, then 12 per sample (no drifts): the 100th issue is in the 8th sample.
      expect(other.lastPath).toMatch(/^samples\[7\]\./);

      const drifts = await runInSmallHeap<Accounted>(
        accountedScript(
          "JSON.stringify({ ...mod.generateNotification('Drift'), samples: [{ drifts: Array.from({ length: 250000 }, () => ({})) }] })",
        ),
      );
      expect(drifts).toMatchObject({ status: 422, code: 'invalid_payload', issues: 100 });
      // 12 members of the sample, then 4 per empty drift: the 22nd drift holds the 100th issue.
      expect(drifts.firstPath).toBe('samples[0].ARN');
      expect(drifts.lastPath).toMatch(/^samples\[0\]\.drifts\[21\]\./);
    },
    CHILD_BOUND,
  );
});

describe('M5: nesting is bounded (default 64 levels)', () => {
  it('a 200,000-deep array in an unknown member is refused with 422 naming the member and the limit', async () => {
    const answer = await receiver.handle(post(withExtra(nested(200_000))));
    expect(answer.status).toBe(422);
    const body = json(answer);
    expect(body.code).toBe('invalid_payload');
    const issues = body.issues as Array<Record<string, string>>;
    expect(issues).toHaveLength(1);
    // The body is level 1 and `extra` level 2: the 65th level is 63 arrays inside `extra`.
    expect(issues[0]).toEqual({
      path: `extra${'[0]'.repeat(63)}`,
      message: `extra${'[0]'.repeat(63)}: expected at most 64 levels of nesting, received more than 64 levels`,
      expected: 'at most 64 levels of nesting',
      received: 'more than 64 levels',
    });
    expect(body.message).toContain('raise maxDepth');
    expect(DEFAULT_MAX_DEPTH).toBe(64);
  });

  it('a body exactly 64 levels deep is accepted, and its payload serialises', async () => {
    const notifications: WebhookNotification[] = [];
    const collecting = createWebhookReceiver({ credentials: 'none' }).onAny((n) => {
      notifications.push(n);
    });
    expect((await collecting.handle(post(withExtra(nested(63))))).status).toBe(200);
    expect(JSON.stringify(notifications[0]?.payload)).toContain(nested(63));
    expect((await collecting.handle(post(withExtra(nested(64))))).status).toBe(422);
  });

  it('a deep top-level array or test delivery is refused the same way', async () => {
    for (const body of [nested(100_000), `{"text":"hi","x":${nested(100)}}`]) {
      const answer = await receiver.handle(post(body));
      expect(answer.status).toBe(422);
      expect((json(answer).issues as Array<{ expected: string }>)[0]?.expected).toBe(
        'at most 64 levels of nesting',
      );
    }
  });

  it('maxDepth raises or lowers the limit, and must be a whole number of levels', async () => {
    const deep = createWebhookReceiver({ credentials: 'none', maxDepth: 200 });
    expect((await deep.handle(post(withExtra(nested(150))))).status).toBe(200);
    expect((await deep.handle(post(withExtra(nested(250))))).status).toBe(422);
    const shallow = createWebhookReceiver({ credentials: 'none', maxDepth: 5 });
    expect((await shallow.handle(post(withExtra(nested(4))))).status).toBe(200);
    expect((await shallow.handle(post(withExtra(nested(5))))).status).toBe(422);
    for (const maxDepth of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createWebhookReceiver({ credentials: 'none', maxDepth })).toThrow(/maxDepth/);
    }
  });
});

describe('hostile member names', () => {
  it('a notificationType named after an Object.prototype member is an unknown type (422), not a crash', async () => {
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const body = JSON.stringify({ ...generateNotification('Drift'), notificationType: type });
      const answer = await receiver.handle(post(body));
      expect(answer.status, type).toBe(422);
      const [issue] = json(answer).issues as Array<Record<string, string>>;
      expect(issue?.path).toBe('notificationType');
      expect(issue?.expected).toContain('"Drift"');
    }
  });

  it('unknown members named __proto__, constructor or toString pass and are kept as plain data', async () => {
    const notifications: WebhookNotification[] = [];
    const collecting = createWebhookReceiver({ credentials: 'none' }).onAny((n) => {
      notifications.push(n);
    });
    const value = JSON.parse(JSON.stringify(generateNotification('Drift'))) as Record<string, unknown>;
    const sample = (value.samples as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
    // Own members named like prototype members, as JSON.parse makes them.
    Object.defineProperty(sample, '__proto__', { value: { polluted: true }, enumerable: true });
    Object.defineProperty(sample, 'toString', { value: 'x', enumerable: true });
    Object.defineProperty(value, 'constructor', { value: [1], enumerable: true });
    const body = JSON.stringify(value);
    expect(body).toContain('"__proto__":{"polluted":true}');
    const answer = await collecting.handle(post(body));
    expect(answer.status).toBe(200);
    const payload = notifications[0]?.payload as unknown as Record<string, unknown>;
    expect(payload.constructor).toEqual([1]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(payload)).toContain('"toString":"x"');
  });
});
