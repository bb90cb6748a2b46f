/**
 * The control table is the one declaration of each control capability: a row alone (and its
 * handler) gives the router its route, `control` its typed method, the landing page its line and the
 * docs table its row; and the docs in `docs/mock-server.md` are what the table generates.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import type { ControlHandlers } from '../../src/control/bind.js';
import { capability, controlRows } from '../../src/control/declare.js';
import { controlDocsTable, generatedSection, tableCells } from '../../src/control/docs-table.js';
import { CONTROL_HANDLERS } from '../../src/control/handlers.js';
import { createControlPlane } from '../../src/control/plane.js';
import { RESET_STAGES } from '../../src/control/reset.js';
import type { ControlDeps, CoreView } from '../../src/control/route.js';
import { CONTROL_ROUTES, controlRouteListing } from '../../src/control/routes.js';
import { CONTROL_TABLE } from '../../src/control/table.js';
import { expectError, refusal, rejection, setup } from '../helpers.js';

/** A throwaway capability, declared by its row alone: `POST /__mock/echo` and `control.echo(n)`. */
const echo = capability<(n: number, note?: string) => { n: number; note: string }>()({
  route: {
    method: 'POST',
    path: '/__mock/echo/{tag}',
    summary: 'answer the number sent, tagged',
    body: z.strictObject({ n: z.number().int().min(0).max(9), note: z.string().optional() }),
    status: 201,
  },
  call: {
    sync: true,
    params: ['n', 'note'],
    args: (n, note) => ({ params: { tag: 't' }, body: { n, note } }),
  },
  writes: [],
});
/** And an asynchronous one in a group: `control.extra.later()`. */
const later = capability<() => Promise<string>>()({
  route: { method: 'GET', path: '/__mock/later', summary: 'answer later' },
  call: { sync: false, args: () => ({}) },
  writes: [],
});
const TABLE = { ...CONTROL_TABLE, echo, extra: { later } } as const;
const HANDLERS: ControlHandlers<typeof TABLE> = {
  ...CONTROL_HANDLERS,
  echo: ({ body, params }) => ({ n: body.n, note: `${params.tag}:${body.note ?? ''}` }),
  'extra.later': async () => 'done',
};

describe('a capability declared as one row', () => {
  // The mock's core and stages, for the rows of the mock's own table (the throwaway rows use none).
  const plane = () => createControlPlane({} as CoreView, {} as ControlDeps, TABLE, HANDLERS);

  it('is routed, with its body checked before its handler, over HTTP', async () => {
    const served = await plane().handle('POST', '/__mock/echo/x', {}, { n: 3, note: 'hi' }, 'req_1', {
      contentType: 'application/json',
    });
    expect([served.status, served.body]).toEqual([201, { n: 3, note: 'x:hi' }]);
    const bad = await plane()
      .handle('POST', '/__mock/echo/x', {}, { n: 30 }, 'req_2', { contentType: 'application/json' })
      .catch((error: unknown) => error);
    expect(bad).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((bad as Error).message).toContain('body.n');
  });

  it('is a typed in-process method that checks what its arguments map to with the same check', async () => {
    const control = plane();
    expectTypeOf(control.echo).toEqualTypeOf<(n: number, note?: string) => { n: number; note: string }>();
    expectTypeOf(control.extra.later).toEqualTypeOf<() => Promise<string>>();
    expect(control.echo(4)).toEqual({ n: 4, note: 't:' });
    expect(refusal(() => control.echo(30)).message).toContain('body.n');
    await expect(control.extra.later()).resolves.toBe('done');
  });

  it('is listed on the landing page and in the docs table', () => {
    expect(controlRouteListing(TABLE)).toContainEqual({
      route: 'POST /__mock/echo/{tag}',
      summary: 'answer the number sent, tagged',
    });
    const rows = tableCells(controlDocsTable(TABLE));
    expect(rows).toContainEqual([
      '`POST /__mock/echo/{tag}`',
      '`control.echo(n, note)`',
      'answer the number sent, tagged',
    ]);
    expect(rows).toContainEqual(['`GET /__mock/later`', '`await control.extra.later()`', 'answer later']);
  });
});

describe("the mock's control table", () => {
  it('is what docs/mock-server.md shows (regenerate with `pnpm docs:control`)', () => {
    const document = readFileSync(new URL('../../../../docs/mock-server.md', import.meta.url), 'utf8');
    const section = generatedSection(document);
    expect(section, 'docs/mock-server.md has the control-table markers').toBeDefined();
    expect(tableCells(section ?? ''), 'run `pnpm docs:control`').toEqual(
      tableCells(controlDocsTable(CONTROL_TABLE)),
    );
  });

  it('routes each row once, declares what it writes, and names real reset stages', () => {
    const keys = CONTROL_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [name, row] of controlRows(CONTROL_TABLE)) {
      expect(row.route ?? row.via, `${name} has a route of its own or goes through one`).toBeDefined();
      if (row.resetStage) expect(RESET_STAGES, name).toContain(row.resetStage);
      if (row.via)
        expect(
          controlRows(CONTROL_TABLE).map(([n]) => n),
          name,
        ).toContain(row.via);
      // A GET changes no data: at most it adds a wait, or ends the idle sessions it lists.
      if (row.route?.method === 'GET')
        expect(
          row.writes.filter((w) => w !== 'waits' && w !== 'sessions'),
          name,
        ).toEqual([]);
    }
  });

  it('answers in process as over HTTP: one check, one handler, the same refusal', async () => {
    const m = await setup({ sizes: { workspaces: 3, events: 5 } });
    const http = await m.call('POST', '/__mock/waits/cancel', {
      token: null,
      body: { reason: 'x'.repeat(201) },
    });
    const body = expectError(http, 400, 'validation_failed');
    expect(refusal(() => m.core.control.cancelWaits('x'.repeat(201))).issues).toEqual(body.issues);
    const waiting = m.core.control.waitFor('workspaces.search', { timeout: 60_000 });
    const cancelled = await m.call('POST', '/__mock/waits/cancel', {
      token: null,
      body: { reason: 'over HTTP' },
    });
    expect(cancelled.body).toEqual({ cancelled: 1 });
    expect((await rejection(waiting)).message).toContain('over HTTP');
    // The GET form of the deliveries reads one integration's attempts by query, as the method does.
    const some = await m.call('GET', '/__mock/deliveries', { token: null, query: { integrationId: 'none' } });
    expect([some.status, some.body]).toEqual([200, []]);
    expect(m.core.control.webhooks.deliveries('none')).toEqual([]);
  });

  it('keeps what the in-process methods took before they were rows: any ISO 8601 instant, a named endpoint', async () => {
    const m = await setup({ sizes: { workspaces: 3, events: 5 } });
    m.core.control.clock.set('2026-01-15T12:00:00+02:00');
    expect(m.core.control.clock.now()).toBe(Date.parse('2026-01-15T10:00:00.000Z'));
    m.core.control.clock.set('2026-01-16');
    expect(m.core.control.clock.now()).toBe(Date.parse('2026-01-16T00:00:00.000Z'));
    m.core.control.clock.set(new Date('2026-01-17T00:00:00.000Z'));
    expect(new Date(m.core.clock.now()).toISOString()).toBe('2026-01-17T00:00:00.000Z');
    const moved = await m.call('POST', '/__mock/clock', {
      token: null,
      body: { now: '2026-01-18T01:00:00+01:00' },
    });
    expect(moved.body).toEqual({ now: '2026-01-18T00:00:00.000Z' });
    expect(refusal(() => m.core.control.clock.set('soon')).message).toContain('body.now');
    // A missing name is refused, not read as "every entry".
    const missing = refusal(() => m.core.control.calls(undefined as never));
    expect([missing.status, missing.issues?.[0]?.path]).toEqual([400, 'endpoint']);
  });
});
