import {
  EventQueryBody,
  fieldIssuesFromZod,
  formatIssuePath,
  GuardrailCreateBody,
  LoginBody,
  summariseIssues,
  WebhookPayload,
  WebhookTestDelivery,
  WorkspaceSearchBody,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { clone, createBodies, driftPayload, payloadBase, sample } from './fixtures.js';

function issuesOf(
  schema: { safeParse: (v: unknown) => { error?: unknown } },
  input: unknown,
  location: 'body' | 'query' = 'body',
) {
  const result = schema.safeParse(input);
  if (!result.error) throw new Error('expected a failure');
  return fieldIssuesFromZod(result.error as never, location, input);
}

describe('field issues', () => {
  it('name the field, what was expected and what came', () => {
    const [issue] = issuesOf(EventQueryBody, { size: 151 });
    expect(issue).toMatchObject({
      location: 'body',
      path: 'size',
      expected: 'at most 150',
      received: 'number 151',
    });
    expect(issue?.message).toBe('body.size: Too big: expected number to be <=150, received number 151');
  });

  it('report each unknown member by name', () => {
    const issues = issuesOf(WorkspaceSearchBody, { limit: 1, filters: { owner: ['x'] } });
    expect(issues.map((i) => i.path).sort()).toEqual(['filters.owner', 'limit']);
    expect(issues.find((i) => i.path === 'limit')?.message).toBe(
      'body.limit: unknown member "limit"; expected only documented members',
    );
  });

  it('report every bad field of a request, not only the first', () => {
    const body = clone(createBodies.cost) as Record<string, unknown>;
    body.severity = 9;
    body.name = '';
    delete body.createdBy;
    const paths = issuesOf(GuardrailCreateBody, body).map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['severity', 'name', 'createdBy']));
  });

  it('describe long strings instead of echoing them', () => {
    const secret = 's'.repeat(600);
    const issues = issuesOf(LoginBody, { accessKey: 'a', secretKey: secret });
    const text = JSON.stringify(issues);
    expect(text).not.toContain(secret.slice(0, 41));
    expect(issues[0]?.received).toBe('a string of 600 characters');
  });

  it('use enum values in the expectation', () => {
    const [issue] = issuesOf(WorkspaceSearchBody, { filters: { vcsType: ['svn'] } });
    expect(issue?.path).toBe('filters.vcsType[0]');
    expect(issue?.expected).toContain('"github"');
    expect(issue?.received).toBe('"svn"');
  });

  it('format paths with dots and brackets, and summarise several issues', () => {
    expect(formatIssuePath(['filters', 'status', 0])).toBe('filters.status[0]');
    expect(formatIssuePath([])).toBe('');
    const issues = issuesOf(WorkspaceSearchBody, { limit: 1, offset: 2 });
    expect(summariseIssues(issues)).toMatch(/\(and 1 more issue\)$/);
    expect(summariseIssues([])).toBe('the request is invalid');
  });
});

describe('webhook payload', () => {
  it('accepts a Drift notification with its drifts', () => {
    const parsed = WebhookPayload.parse(driftPayload);
    expect(parsed.notificationType).toBe('Drift');
    if (parsed.notificationType === 'Drift') expect(parsed.samples[0]?.drifts[0]?.keyName).toBe('acl');
  });

  it.each(['UnmanagedResource', 'GhostResource', 'InsightDetected'])(
    'accepts a %s notification without drifts',
    (kind) => {
      expect(
        WebhookPayload.safeParse({ ...payloadBase, notificationType: kind, samples: [sample] }).success,
      ).toBe(true);
    },
  );

  it('refuses drifts outside Drift, and a Drift sample without drifts', () => {
    const withDrifts = { ...payloadBase, notificationType: 'GhostResource', samples: driftPayload.samples };
    expect(WebhookPayload.safeParse(withDrifts).success).toBe(false);
    expect(
      WebhookPayload.safeParse({ ...payloadBase, notificationType: 'Drift', samples: [sample] }).success,
    ).toBe(false);
  });

  it('tolerates unknown members, such as a tags string on a sample', () => {
    const payload = clone(driftPayload) as { samples: Array<Record<string, unknown>> };
    payload.samples[0] = { ...payload.samples[0], tags: 'team=data' };
    expect(WebhookPayload.safeParse({ ...payload, extra: true }).success).toBe(true);
  });

  it('requires nanosecond timestamps and a null otherOwnerData', () => {
    const millis = clone(driftPayload);
    millis.samples[0] = { ...millis.samples[0], firstSeen: '2024-05-01T12:00:00.123Z' } as never;
    expect(WebhookPayload.safeParse(millis).success).toBe(false);
    const owner = clone(driftPayload);
    (owner.samples[0] as { ownerData: { otherOwnerData: unknown } }).ownerData.otherOwnerData = {};
    expect(WebhookPayload.safeParse(owner).success).toBe(false);
  });

  it('refuses an unknown notification type and recognises the test delivery', () => {
    expect(
      WebhookPayload.safeParse({ ...payloadBase, notificationType: 'Heartbeat', samples: [] }).success,
    ).toBe(false);
    expect(WebhookTestDelivery.safeParse({ text: 'Test notification' }).success).toBe(true);
    expect(WebhookTestDelivery.safeParse({ message: 'x' }).success).toBe(false);
  });
});

describe('field issues never echo credentials', () => {
  it('describes a short value of a credential-like member by its length only', () => {
    const issues = fieldIssuesFromZod(
      LoginBody.safeParse({ accessKey: 'ak', secretKey: 'hunter2', password: 'pw-123' }).error as never,
      'body',
      { accessKey: 'ak', secretKey: 'hunter2', password: 'pw-123' },
    );
    expect(issues.map((i) => i.path)).toEqual(['password']);
    expect(JSON.stringify(issues)).not.toContain('pw-123');
    expect(issues[0]?.received).toBe('a string of 6 characters');
  });
});
