import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ControlRoute } from '../../src/control/route.js';
import { dispatchControl, matchControlRoute } from '../../src/control/router.js';
import { CONTROL_ROUTES, controlRouteListing } from '../../src/control/routes.js';
import type { HttpError } from '../../src/errors.js';
import { expectError, refusal, setup } from '../helpers.js';

describe('the control router', () => {
  it('matches `{params}` as one whole, decoded segment, as the API routes do', () => {
    const route = (path: string) => matchControlRoute(CONTROL_ROUTES, 'POST', path);
    expect(route('/__mock/stacks/a%2Fb/findings').params).toEqual({ id: 'a/b' });
    expect(route('/__mock/stacks/abc/findings').route.path).toBe('/__mock/stacks/{id}/findings');
    expect(refusal(() => route('/__mock/stacks//findings')).status).toBe(404);
    expect(refusal(() => route('/__mock/stacks/a/b/findings')).status).toBe(404);
    expect(refusal(() => route('/__mock/stacks/%E0%A4%A/findings')).status).toBe(404);
  });

  it('answers 405 with every method of a known path in Allow, and 404 for an unknown path', () => {
    const wrong = refusal(() => matchControlRoute(CONTROL_ROUTES, 'PUT', '/__mock/faults'));
    expect([wrong.status, wrong.headers.allow]).toEqual([405, 'POST, GET, DELETE']);
    const webhook = refusal(() => matchControlRoute(CONTROL_ROUTES, 'GET', '/__mock/integrations/webhook/x'));
    expect(webhook.headers.allow).toBe('PATCH, DELETE');
    expect(refusal(() => matchControlRoute(CONTROL_ROUTES, 'GET', '/__mock/none')).code).toBe(
      'route_not_found',
    );
  });

  it("validates the body with the route's schema before its handler runs", async () => {
    let ran = false;
    const routes: ControlRoute[] = [
      {
        name: 'thing',
        method: 'POST',
        path: '/__mock/thing',
        summary: 'a test route',
        body: z.strictObject({ n: z.number() }),
        handler: ({ body }) => {
          ran = true;
          return { status: 200, headers: {}, body };
        },
      },
    ];
    const context = {
      plane: undefined as never,
      core: undefined as never,
      deps: undefined as never,
      query: {},
      contentType: null,
    };
    const bad = await Promise.resolve()
      .then(() =>
        dispatchControl(routes, 'POST', '/__mock/thing', { ...context, readBody: async () => ({ n: 'x' }) }),
      )
      .catch((error: HttpError) => error);
    expect((bad as HttpError).issues?.[0]?.path).toBe('n');
    expect(ran).toBe(false);
    const good = await dispatchControl(routes, 'POST', '/__mock/thing', {
      ...context,
      readBody: async () => ({ n: 1 }),
    });
    expect(good.body).toEqual({ n: 1 });
  });

  it('reads the body only once a route matched: 404 for an unknown path and 200 for GET /__mock/clock, whatever the body', async () => {
    const ctx = await setup();
    const garbage = { token: null, rawBody: '{"not json', headers: { 'content-type': 'application/json' } };
    expectError(await ctx.call('POST', '/__mock/nowhere', garbage), 404, 'route_not_found');
    const clock = await ctx.call('GET', '/__mock/clock', garbage);
    expect(clock.status).toBe(200);
    expect(clock.body).toHaveProperty('now');
    // A route that takes a body still reads it, and refuses it as what it is.
    expectError(await ctx.call('POST', '/__mock/clock', garbage), 400, 'invalid_json');
    const xml = { token: null, rawBody: '<xml/>', headers: { 'content-type': 'application/xml' } };
    expectError(await ctx.call('POST', '/__mock/notifications', xml), 415, 'unsupported_media_type');
  });

  it("takes on mutating routes the JSON media types the API takes, by the contract's one rule", async () => {
    const ctx = await setup();
    const as = (type: string) => ({ token: null, rawBody: '{}', headers: { 'content-type': type } });
    for (const type of ['application/json', 'application/vnd.iacm+json', 'application/json; charset=UTF-8']) {
      expect((await ctx.call('POST', '/__mock/reset', as(type))).status, type).toBe(200);
    }
    for (const type of ['application/json; charset=latin1', 'text/json', 'application/json-seq']) {
      expectError(await ctx.call('POST', '/__mock/reset', as(type)), 415, 'unsupported_media_type');
    }
  });

  it('has each method and path once, every one listed with what it does', () => {
    const keys = CONTROL_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(controlRouteListing()).toContainEqual({
      route: 'POST /__mock/workspaces/{id}/runs',
      summary: 'simulate a CI run, evaluated against the guardrail rules',
    });
  });

  it('answers over HTTP through the core: a table route, a 405 with Allow, a 400 naming the field', async () => {
    const ctx = await setup();
    expect((await ctx.call('GET', '/__mock/faults/', { token: null })).body).toEqual([]);
    const wrong = await ctx.call('PATCH', '/__mock/clock', { token: null });
    expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.allow).toBe('GET, POST');
    const bad = await ctx.call('POST', '/__mock/rate-limit', { token: null, body: { enabled: 'yes' } });
    expect(expectError(bad, 400, 'validation_failed').issues?.[0]?.path).toBe('enabled');
  });
});
