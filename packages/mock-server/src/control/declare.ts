/**
 * How a control capability is declared: one row of the control table (`control/table.ts`), as data.
 * A row names its HTTP route (method, path, summary, body and query checks, success status, size
 * bounds), its in-process method (`control.<name>`: how the method's arguments map to the route's
 * path parameters, query and body, whether it answers at once or with a Promise, and how the
 * route's answer becomes the method's), the reset stage that restores what it writes, the stores it
 * writes, and the option and CLI flag that set the same thing at start, where there is one.
 *
 * This half is importable without the core, msw or `node:` (the architecture test keeps it so): a
 * typed client for the standalone mock's control plane is generated from it. The other half, each
 * row's handler, is bound in the core (`control/handlers.ts`).
 *
 * @module
 */
import type { JsonBounds } from '@iacm/sdk/contract';
import type * as z from 'zod';
import type { BudgetStore } from '../store/budget.js';
import type { ResetStage } from './reset.js';

/** An HTTP method the control plane serves. */
export type ControlMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who is calling: an in-process `control.*` method (`'process'`) or a request under `/__mock`
 * (`'http'`). The checks are the same; a wait's longest timeout is not (10 minutes in process, 30 s
 * over HTTP, where a proxy would cut the request).
 */
export type ControlTransport = 'process' | 'http';

/**
 * How a control route checks its body: a zod schema (a request without a body is checked as `{}`),
 * or a function given the body as sent and the transport (the snapshot's `checkSnapshot`, a wait's
 * check), which answers the checked value or throws a 400; a check of user-sized work (a scenario's
 * 10,000 steps) may answer a Promise of it (checked in slices that yield), which the row's handler
 * gets settled: only a row whose method answers a Promise may have one. The in-process method of the
 * same row runs the same check on the body its arguments map to, so both refuse a bad body with the
 * same issues.
 */
export type ControlBodyCheck = z.ZodType | ((raw: unknown, transport: ControlTransport) => unknown);

/**
 * The body a handler gets from its route's check: the schema's output, the check function's answer,
 * or the body as sent (`unknown`) for a route that declares no check.
 */
export type CheckedBody<B> = B extends z.ZodType
  ? z.output<B>
  : B extends (raw: unknown, transport: ControlTransport) => infer T
    ? Awaited<T>
    : unknown;

/**
 * The query a handler gets from its route's `query` schema: the schema's output; the query as sent
 * for a route that declares none.
 */
export type CheckedQuery<Q> = [Q] extends [z.ZodType] ? z.output<Q> : Record<string, string | string[]>;

/** The names of a path template's `{name}` parameters: `'/__mock/stacks/{id}/findings'` → `'id'`. */
export type PathParamName<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamName<Rest>
  : never;

/**
 * The decoded path parameters of a template: one string member per `{name}` (a route's handler reads
 * `params.id` as a `string`); any string key for a template not known literally.
 */
export type PathParams<P extends string> = string extends P
  ? Readonly<Record<string, string>>
  : { readonly [K in PathParamName<P>]: string };

/** The HTTP half of a row: the route under `/__mock` and what it takes. */
export interface ControlRouteDeclaration<
  P extends string = string,
  B extends ControlBodyCheck | undefined = ControlBodyCheck | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** The method. */
  readonly method: ControlMethod;
  /** The path under `/__mock`; `{name}` segments are parameters, as in the endpoint table. */
  readonly path: P;
  /** What it does, for the landing page and the docs table. */
  readonly summary: string;
  /** The body's check, run once before the handler (a 400 naming every bad field). */
  readonly body?: B;
  /** The query's schema, parsed before the handler (a 400 naming `query.<name>`). */
  readonly query?: Q;
  /**
   * The success status: a number (default 200; 204 answers no body), or a function of the answer
   * (a timed run is 202, a finished one 201).
   */
  readonly status?: number | ((answer: never) => number);
  /** The largest body this route takes, bytes (default 1 MiB; 413 beyond, before it is read in full). */
  readonly maxBodyBytes?: number;
  /** The shape bounds of this route's JSON body; default the contract's `DEFAULT_JSON_BOUNDS`. */
  readonly jsonBounds?: JsonBounds;
  /**
   * `false`: the route's successful answers are not journalled (a poll of what the journal holds,
   * `GET /__mock/live/feed`, whose own entries would push out the requests it shows); its refusals
   * (400, 403) are. Default: journalled, as every request.
   */
  readonly journalled?: false;
}

/**
 * The request parts an in-process method's arguments map to (what a typed HTTP client would send),
 * its `params` typed from the route's path `P` (a misnamed parameter does not compile).
 */
export interface ControlCallRequest<P extends string = string> {
  /** The route's `{name}` parameters. */
  readonly params?: PathParams<P>;
  /**
   * The query (members left `undefined` are not sent; a number is sent as its text, and handed to
   * the check as it is in process, so that `journal(NaN)` is refused as the number it is).
   */
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  /** The body (a method that carries one: POST, PUT, PATCH). */
  readonly body?: unknown;
}

/** Any function type (an in-process method's signature). */
// biome-ignore lint/suspicious/noExplicitAny: a signature of any parameters, as `Parameters` takes.
export type ControlSignature = (...args: any[]) => any;

/** Whether a signature answers at once (`true`) or with a Promise (`false`). */
export type IsSync<F extends ControlSignature> = ReturnType<F> extends Promise<unknown> ? false : true;

/**
 * The in-process half of a row: `control.<row name>` (a row named `group.member` is
 * `control.webhooks.create`, `control.clock.advance`), typed by the signature `F` the row is
 * declared with.
 */
export interface ControlCallDeclaration<
  F extends ControlSignature = ControlSignature,
  A = unknown,
  P extends string = string,
> {
  /**
   * `true` when the method answers at once; `false` when it answers a Promise. Checked against the
   * signature by the compiler; a method that does long work (and so will yield) answers a Promise.
   */
  readonly sync: IsSync<F>;
  /** The names of the method's parameters, as the docs and a generated client show them. */
  readonly params?: readonly string[];
  /** How the method's arguments map to the route's parameters, query and body. */
  readonly args: (...args: Parameters<F>) => ControlCallRequest<P>;
  /**
   * The method's answer from the route's (default: the route's answer as it is): `control.reset()`
   * answers nothing where `POST /__mock/reset` answers the parts restored.
   */
  readonly result?: (answer: A) => Awaited<ReturnType<F>>;
  /** The in-process form the docs table shows (`control.respond(name, a)`); default the name and its parameters. */
  readonly docs?: string;
}

/** The option of `createMockServer`/`listen` and the `iacm-mock` flag that set a row's concept at start. */
export interface ControlOptionDeclaration {
  /** The option's name (`scene`, `rateLimit`, `clock`). */
  readonly option: string;
  /** The CLI flag as the help shows it (`--scene <file>`), when there is one. */
  readonly flag?: string;
  /** The flag's help text, one or more lines (wrapped by the help), when there is a flag. */
  readonly help?: string;
}

/** A row's cells in the docs table (`docs/mock-server.md`), where the defaults do not say enough. */
export interface ControlDocsDeclaration {
  /** The request cell (default: the route's, or the `via` row's, `METHOD /path`). */
  readonly request?: string;
  /** The in-process cell of a row without an in-process method (default `–`). */
  readonly call?: string;
  /** What it does, Markdown (default: the route's summary). */
  readonly about?: string;
}

/**
 * A store of a mock's state that a control capability writes: the budget charges what it keeps.
 * `data` is the accounts and their records (a scene's or a scenario's data too), `scenario` the
 * pending steps of the scenario being played, `timedRuns` the pending steps of runs on the clock.
 */
export type ControlStore =
  | 'data'
  | 'scenario'
  | 'timedRuns'
  | 'webhooks'
  | 'journal'
  | 'waits'
  | 'faults'
  | 'oneOff'
  | 'rateLimit'
  | 'clock'
  | 'sessions';

/**
 * What the memory budget (`store/budget.ts`) charges for each store a control capability writes: the
 * budget stores it keeps its bytes in, or why it keeps none that grow (a bound of its own, fixed in
 * size). Typed over every {@link ControlStore}: a store added to that list does not compile until it
 * says how it is charged, and the walk test (`test/control/budget-walk.test.ts`) writes through every
 * row and checks the bytes move.
 */
export const CONTROL_STORE_CHARGES = {
  data: ['data', 'events'],
  scenario: ['scenario'],
  timedRuns: ['timedRuns'],
  webhooks: ['webhooks', 'attempts'],
  journal: ['journal'],
  waits: ['waits'],
  faults: ['faults'],
  oneOff: ['oneOff'],
  rateLimit: 'the rate limit: one setting, and counters bounded by the clients of one window',
  clock: 'the clock: one number',
  sessions: ['data', 'events'],
} as const satisfies Record<ControlStore, readonly BudgetStore[] | string>;

/**
 * One control capability, declared once. `F` is the in-process method's signature (`never` for a
 * row that has none), `P`, `B` and `Q` its route's path, body check and query schema, `A` what its
 * handler answers, `V` the row it goes `via` (`never`: it has a handler of its own).
 */
export interface ControlDeclaration<
  F extends ControlSignature = ControlSignature,
  P extends string = string,
  B extends ControlBodyCheck | undefined = ControlBodyCheck | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  A = unknown,
  V extends string = string,
> {
  /** The HTTP route; a method that reaches another row's route names that row in `via` instead. */
  readonly route?: ControlRouteDeclaration<P, B, Q>;
  /** The in-process method, when there is one. */
  readonly call?: ControlCallDeclaration<F, A, NoInfer<P>>;
  /**
   * The row whose route (check and handler) the in-process method goes through, when it is not this
   * row's own: `clock.advance` goes through `POST /__mock/clock`.
   */
  readonly via?: V;
  /** The reset stage that puts back what this capability writes (absent: it writes nothing a reset restores). */
  readonly resetStage?: ResetStage;
  /** The stores it writes (none for a read). */
  readonly writes: readonly ControlStore[];
  /** The option and CLI flag of the same concept, where there is one. */
  readonly option?: ControlOptionDeclaration;
  /** What the docs table shows where the route's own text is not enough. */
  readonly docs?: ControlDocsDeclaration;
  /**
   * Phantom: what the route's handler answers (the type only; the value is never read). Given by
   * {@link answers} on a row whose answer differs from its in-process method's, or that has none.
   */
  readonly answer?: A;
  /** Phantom: the row's type parameters, as the derived types read them (never set). */
  readonly types?: { readonly signature: F; readonly answer: A; readonly via: V };
}

/** A row of any types: what a table holds. */
// biome-ignore lint/suspicious/noExplicitAny: a row of any signature, path, checks and answer.
export type AnyControlDeclaration = ControlDeclaration<any, any, any, any, any, any>;

/** A row's type parameters (its phantom `types`). */
type TypesOf<R> = R extends { readonly types?: infer T } ? NonNullable<T> : never;

/** The in-process signature of a row (`never` when it has none). */
export type SignatureOf<R> = TypesOf<R> extends { readonly signature: infer F } ? F : never;

/** The row a row goes through (`never`: its own). */
export type ViaOf<R> = TypesOf<R> extends { readonly via: infer V } ? V : never;

/** The answer type a row's handler must produce: declared with {@link answers}, else the in-process method's. */
export type AnswerOf<R> =
  TypesOf<R> extends { readonly answer: infer A }
    ? unknown extends A
      ? [SignatureOf<R>] extends [never]
        ? unknown
        : SignatureOf<R> extends ControlSignature
          ? Awaited<ReturnType<SignatureOf<R>>>
          : unknown
      : A
    : unknown;

/**
 * Declares a row with the in-process signature `F` given and everything else inferred:
 * `capability<(rule: FaultRule) => Fault>()({ route: {...}, call: {...}, writes: ['faults'] })`.
 * Curried so that `F` is named while the path, checks and answer are inferred.
 */
export function capability<F extends ControlSignature = never>() {
  return <
    const P extends string = string,
    B extends ControlBodyCheck | undefined = undefined,
    Q extends z.ZodType | undefined = undefined,
    A = unknown,
    const V extends string = never,
  >(
    row: ControlDeclaration<F, P, B, Q, A, V>,
  ): ControlDeclaration<F, P, B, Q, A, V> => row;
}

/** The phantom of {@link ControlDeclaration.answer}: `answer: answers<{ now: string }>()`. */
export function answers<A>(): A {
  return undefined as A;
}

/** A group of rows: `control.webhooks.*`, `control.clock.*` (a row of it is named `group.member`). */
export type ControlGroup = Readonly<Record<string, AnyControlDeclaration>>;

/**
 * A control table: rows by capability name, and groups of rows. A row with an in-process method is
 * `control.<name>` (`control.<group>.<name>` in a group); a row that only adds a route (the `GET`
 * form of a wait) is no member. Rows are named `name`, or `group.name` in a group (as `via` names them).
 */
export type ControlTable = Readonly<Record<string, AnyControlDeclaration | ControlGroup>>;

/** Whether a table's entry is a row (it says what it writes) rather than a group. */
type IsRow<R> = R extends { readonly writes: readonly ControlStore[] } ? true : false;

/** The names of a table's rows: `name`, and `group.name` for a row of a group. */
export type RowName<T> = {
  [K in keyof T & string]: IsRow<T[K]> extends true ? K : `${K}.${keyof T[K] & string}`;
}[keyof T & string];

/** The row of a table named `N` (`group.name` for a row of a group). */
export type RowOf<T, N> = N extends `${infer G}.${infer M}`
  ? G extends keyof T
    ? M extends keyof T[G]
      ? T[G][M]
      : never
    : never
  : N extends keyof T
    ? T[N]
    : never;

/** Whether a table's entry gives `control` a member: a row with an in-process method, or a group. */
type IsMember<R> = IsRow<R> extends true ? ([SignatureOf<R>] extends [never] ? false : true) : true;

/**
 * The in-process control methods a table declares, typed from its rows: a member per row that has
 * an in-process method (its declared signature, and its TSDoc), an object per group
 * (`control.webhooks.create`, `control.clock.advance`).
 */
export type ControlMethodsOf<T> = {
  readonly [K in keyof T as IsMember<T[K]> extends true ? K : never]: IsRow<T[K]> extends true
    ? SignatureOf<T[K]>
    : { readonly [M in keyof T[K] as IsMember<T[K][M]> extends true ? M : never]: SignatureOf<T[K][M]> };
};

/** Whether a table's entry is a group (runtime: a row says what it `writes`). */
function isGroup(entry: AnyControlDeclaration | ControlGroup): entry is ControlGroup {
  return !Array.isArray((entry as { writes?: unknown }).writes);
}

/** A table's rows, in table order, each with its name (`group.name` for a row of a group). */
export function controlRows(table: ControlTable): Array<readonly [string, AnyControlDeclaration]> {
  const rows: Array<readonly [string, AnyControlDeclaration]> = [];
  for (const [name, entry] of Object.entries(table)) {
    if (isGroup(entry)) {
      for (const [member, row] of Object.entries(entry)) rows.push([`${name}.${member}`, row]);
    } else {
      rows.push([name, entry]);
    }
  }
  return rows;
}

/**
 * The members a table's rows with an in-process method give, each made by `make`: `out[name]`, and
 * `out[group][member]` for a row named `group.member`. The in-process methods (`bind.ts`) and the
 * remote client's (`remote.ts`) are both laid out by it, so they have the same names.
 */
export function controlMembersOf(
  table: ControlTable,
  make: (name: string, row: AnyControlDeclaration) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, row] of controlRows(table)) {
    if (!row.call) continue;
    const method = make(name, row);
    const dot = name.indexOf('.');
    if (dot < 0) {
      out[name] = method;
    } else {
      const group = name.slice(0, dot);
      if (out[group] === undefined) out[group] = {};
      (out[group] as Record<string, unknown>)[name.slice(dot + 1)] = method;
    }
  }
  return out;
}
