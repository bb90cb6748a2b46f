/**
 * Which msw `createMockServer` works with, checked before it builds its first handler.
 *
 * msw is a peer dependency (`^2.15.0 || ^3.0.0`): the handlers must come from the same msw as the
 * user's `setupServer`/`setupWorker`. An msw outside that range, or msw 3 on a runtime it does not
 * support (Node < 22.12, where it fails later with `Promise.withResolvers is not a function`), is
 * refused here with a message naming the range and the install line.
 *
 * The check reads what the installed msw exports (no package.json, no `fs`), so it works the same in
 * Node (ESM and CJS) and in browsers:
 * - msw 1 and older have no `http` export (they had `rest`);
 * - msw 2.15 added `RequestHandler.prototype.complete` (2.0 to 2.14 lack it);
 * - msw 3 gave every handler a `dispose()` (from its `Handler` base class), which msw 2 lacks.
 */

/** The msw versions `createMockServer` supports (the peer dependency range). */
export const SUPPORTED_MSW_RANGE = '^2.15.0 || ^3.0.0';

/** The oldest Node that msw 3 runs on (its `engines`). */
const MSW3_MIN_NODE: readonly [number, number] = [22, 12];

/** The msw line found, from its exports. */
export type MswLine = 'msw<2' | 'msw2<2.15' | 'msw2' | 'msw3';

/** What the runtime offers that msw needs. */
export interface RuntimeFacts {
  /** Node's version (`process.versions.node`); undefined in a browser, Bun and Deno. */
  node?: string | undefined;
  /** Whether `Promise.withResolvers` exists (msw 3 calls it for every mocked response). */
  promiseWithResolvers: boolean;
}

/** Thrown by `createMockServer` when the installed msw cannot work with it (or on this runtime). */
export class UnsupportedMswError extends Error {
  override name = 'UnsupportedMswError';
}

/** Whether `name` is a function somewhere on the prototype chain of `proto` (below Object.prototype). */
function hasMethod(proto: unknown, name: string): boolean {
  let current: unknown = proto;
  while (current && current !== Object.prototype) {
    const descriptor = Object.getOwnPropertyDescriptor(current, name);
    if (descriptor && typeof descriptor.value === 'function') return true;
    current = Object.getPrototypeOf(current);
  }
  return false;
}

/**
 * Tells the msw line from the module namespace of `msw` (what `import * as msw from 'msw'` gives), or
 * of `msw/core/http` (its `http` alone).
 * @param msw the module's exports.
 */
export function detectMswLine(msw: Readonly<Record<string, unknown>>): MswLine {
  const http = msw.http as { all?: (path: string, resolver: () => undefined) => unknown } | undefined;
  if (typeof http?.all !== 'function') return 'msw<2';
  const handler = msw.RequestHandler as { prototype?: unknown } | undefined;
  // Without `RequestHandler` (msw 2's `msw/core/http` has `http` alone), a handler `http.all` makes
  // has it on its prototype chain.
  const proto = handler?.prototype ?? Object.getPrototypeOf(http.all('/__iacm-msw-probe', () => undefined));
  if (hasMethod(proto, 'dispose')) return 'msw3';
  if (hasMethod(proto, 'complete')) return 'msw2';
  return 'msw2<2.15';
}

/** The runtime this code runs in. */
export function currentRuntime(): RuntimeFacts {
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process
    ?.versions;
  // Bun and Deno report a Node version they are compatible with, not one msw's engines speak of.
  const isNode = versions?.node !== undefined && versions.bun === undefined && versions.deno === undefined;
  return {
    node: isNode ? versions?.node : undefined,
    promiseWithResolvers: typeof (Promise as { withResolvers?: unknown }).withResolvers === 'function',
  };
}

/** Whether a Node version `x.y.z` is at least `[major, minor]`. */
function nodeAtLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const [x = 0, y = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return x > major || (x === major && y >= minor);
}

/** The install line that fits the runtime. */
function installLine(runtime: RuntimeFacts): string {
  if (runtime.node !== undefined && !nodeAtLeast(runtime.node, MSW3_MIN_NODE)) return 'npm i -D msw@^2.15';
  return 'npm i -D msw@^3 (or msw@^2.15)';
}

/**
 * Why the installed msw cannot serve `createMockServer` on this runtime, or undefined when it can.
 * @param line the msw line found (see {@link detectMswLine}).
 * @param runtime the runtime (see {@link currentRuntime}).
 */
export function mswSupportProblem(line: MswLine, runtime: RuntimeFacts): string | undefined {
  const supported = `@iacm/mock-server supports msw ${SUPPORTED_MSW_RANGE}`;
  switch (line) {
    case 'msw2':
      return undefined;
    case 'msw<2':
      return `${supported}, but the installed msw is older than 2 (it has no \`http\` export). Install a supported one: ${installLine(runtime)}.`;
    case 'msw2<2.15':
      return `${supported}, but the installed msw is 2.0 to 2.14 (its RequestHandler has no complete()). Install a supported one: ${installLine(runtime)}.`;
    case 'msw3': {
      const [major, minor] = MSW3_MIN_NODE;
      if (runtime.node !== undefined && !nodeAtLeast(runtime.node, MSW3_MIN_NODE)) {
        return `${supported}, but msw 3 needs Node >= ${major}.${minor} and this is Node ${runtime.node}. On Node ${runtime.node.split('.')[0]} install msw 2: npm i -D msw@^2.15 (or run on Node >= ${major}.${minor} to keep msw 3).`;
      }
      if (!runtime.promiseWithResolvers) {
        return `${supported}, but msw 3 needs Promise.withResolvers, which this runtime lacks. Install msw 2 (npm i -D msw@^2.15) or use a newer runtime.`;
      }
      return undefined;
    }
  }
}

/**
 * Throws an {@link UnsupportedMswError} when the installed msw cannot serve `createMockServer` here.
 * @param msw the module's exports (`import * as msw from 'msw'`).
 * @param runtime the runtime; the current one by default.
 */
export function assertSupportedMsw(
  msw: Readonly<Record<string, unknown>>,
  runtime: RuntimeFacts = currentRuntime(),
): void {
  const problem = mswSupportProblem(detectMswLine(msw), runtime);
  if (problem !== undefined) throw new UnsupportedMswError(problem);
}
