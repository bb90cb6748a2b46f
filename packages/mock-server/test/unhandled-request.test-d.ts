/**
 * `unhandledRequestStrategy(...)` fits MSW 2's `onUnhandledRequest` (the msw installed here) and MSW 3's
 * `onUnhandledFrame` (its callback type written out below, as msw 3.0.5 declares it in
 * `lib/_chunks/handlers-controller.d.ts`: the mock-server package takes msw ^2.15 or ^3 as a peer).
 * Checked by `pnpm typecheck`.
 */
import type { UnhandledRequestStrategy } from 'msw';
import type { SetupWorker } from 'msw/browser';
import type { SetupServer } from 'msw/node';
import { describe, expectTypeOf, it } from 'vitest';
import { unhandledRequestStrategy } from '../src/index.js';

/** MSW 3's `NetworkFrame<string, unknown, any>` (`AnyNetworkFrame`), the members a callback sees. */
interface Msw3AnyNetworkFrame {
  readonly protocol: string;
  readonly data: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: as msw 3 declares it
  events: any;
  passthrough(): void;
  errorWith(reason?: unknown): void;
}
/** MSW 3's `UnhandledFrameCallback`. */
type Msw3UnhandledFrameCallback = (args: {
  frame: Msw3AnyNetworkFrame;
  defaults: { warn: () => void; error: () => void };
}) => Promise<void> | void;

declare const server: SetupServer;
declare const worker: SetupWorker;

describe('unhandledRequestStrategy fits MSW 2 and MSW 3', () => {
  it("is an MSW 2 onUnhandledRequest strategy, for setupServer's listen and setupWorker's start", () => {
    expectTypeOf(unhandledRequestStrategy('error')).toExtend<UnhandledRequestStrategy>();
    expectTypeOf(unhandledRequestStrategy('warn')).toExtend<UnhandledRequestStrategy>();
    server.listen({ onUnhandledRequest: unhandledRequestStrategy('error') });
    void worker.start({ onUnhandledRequest: unhandledRequestStrategy('warn') });
  });

  it('is an MSW 3 onUnhandledFrame callback', () => {
    expectTypeOf(unhandledRequestStrategy()).toExtend<Msw3UnhandledFrameCallback>();
  });

  it("takes 'error' or 'warn' only", () => {
    // @ts-expect-error 'bypass' prints nothing: pass MSW's own
    unhandledRequestStrategy('bypass');
  });
});
