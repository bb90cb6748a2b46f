/**
 * The modules `pnpm test:mutation` mutates, each with the tests that may kill its mutants, and the goal
 * every module must reach: a mutation score of at least {@link GOAL} percent, where a timeout counts as
 * killed (Stryker's own score) and a mutant marked equivalent does not count.
 *
 * To add a module: add an entry below (its files are `mutate` patterns, relative to the repository root;
 * its tests are vitest `include` patterns, globs allowed). Stryker's config and the mutation vitest config both read
 * this list, and `check-scores.mjs` fails the run when a module is under the goal or has no mutants
 * (a file renamed without this list following it).
 *
 * Equivalent mutants (a change no test can tell apart, because the behaviour is the same) are marked
 * where they are, with the reason: in the source, `// Stryker disable next-line <Mutator>: <reason>`
 * (Stryker then reports them as ignored, with the reason); or, for a file whose owner prefers it
 * clean, in the module's `equivalent` list below: `{ file, mutator, original, replacement, reason }`,
 * matched on the mutated code (not the line, which moves), counted out of the score by
 * `check-scores.mjs` and printed with their reason. Never mark a mutant that a test could kill.
 *
 * `MUTATION_MODULES=query-glob,query-versions pnpm test:mutation` runs only the named modules.
 *
 * @typedef {{ file: string, mutator: string, original: string, replacement: string, reason: string }} Equivalent
 * @typedef {{ name: string, mutate: string[], tests: string[], equivalent?: Equivalent[] }} MutationModule
 */

/** The least mutation score of every module, percent. */
export const GOAL = 90;

/** @type {MutationModule[]} */
export const MODULES = [
  {
    // The one memory budget every store charges (issue 34).
    name: 'budget',
    mutate: ['packages/mock-server/src/store/budget.ts'],
    tests: ['packages/mock-server/test/store/budget.test.ts'],
  },
  {
    name: 'json-bounds',
    mutate: ['packages/sdk/src/contract/json-bounds.ts'],
    tests: [
      'packages/sdk/test/json-bounds.test.ts',
      'packages/mock-server/test/pipeline/body-limits.test.ts',
      'packages/webhook-receiver/test/body.test.ts',
    ],
  },
  {
    // The HTTP rules the mock and the receiver share (headers, JSON media type, bounded body reading).
    name: 'http-helpers',
    mutate: ['packages/sdk/src/contract/http.ts'],
    tests: [
      'packages/sdk/test/contract-http.test.ts',
      'packages/webhook-receiver/test/verify-path.test.ts',
      'packages/webhook-receiver/test/body.test.ts',
      'packages/mock-server/test/pipeline/body.test.ts',
    ],
    equivalent: [
      {
        file: 'packages/sdk/src/contract/http.ts',
        mutator: 'ConditionalExpression',
        original: 'body.length > limit',
        replacement: 'false',
        reason: 'the byte count refuses the same strings; this only spares encoding a huge one',
      },
    ],
  },
  {
    name: 'receiver-credentials',
    mutate: ['packages/webhook-receiver/src/credentials.ts'],
    // Every receiver test: the credentials are checked on the verify path, in the adapters, by the fuzz.
    tests: ['packages/webhook-receiver/test/*.test.ts'],
  },
  {
    name: 'receiver-verify',
    mutate: ['packages/webhook-receiver/src/receiver.ts'],
    tests: ['packages/webhook-receiver/test/*.test.ts'],
  },
  {
    name: 'journal',
    mutate: ['packages/mock-server/src/pipeline/journal.ts'],
    tests: [
      'packages/mock-server/test/pipeline/journal.test.ts',
      'packages/mock-server/test/journal-redaction.test.ts',
      'packages/mock-server/test/pipeline/body-limits.test.ts',
      'packages/mock-server/test/security-doc.test.ts',
    ],
  },
  {
    name: 'login-throttle',
    mutate: ['packages/mock-server/src/auth/login.ts', 'packages/mock-server/src/auth/window-counter.ts'],
    tests: [
      'packages/mock-server/test/login-throttle.test.ts',
      'packages/mock-server/test/auth/window-counter.test.ts',
      'packages/mock-server/test/auth/login.test.ts',
      'packages/mock-server/test/auth/login-cache.test.ts',
      'packages/mock-server/test/auth/token-key.test.ts',
      'packages/mock-server/test/pipeline/rate-limit.test.ts',
      'packages/mock-server/test/pipeline/authenticate.test.ts',
      'packages/mock-server/test/security-doc.test.ts',
    ],
  },
  {
    name: 'query-text',
    mutate: ['packages/mock-server/src/query/text.ts'],
    tests: ['packages/mock-server/test/query/text.test.ts'],
  },
  {
    name: 'query-glob',
    mutate: ['packages/mock-server/src/query/glob.ts'],
    tests: ['packages/mock-server/test/glob.test.ts', 'packages/mock-server/test/query/glob-lists.test.ts'],
  },
  {
    name: 'query-versions',
    mutate: ['packages/mock-server/src/query/versions.ts'],
    tests: ['packages/mock-server/test/query/versions.test.ts'],
  },
  {
    name: 'query-memo',
    mutate: ['packages/mock-server/src/query/memo.ts'],
    tests: [
      'packages/mock-server/test/query/memo.test.ts',
      'packages/mock-server/test/query/glob-lists.test.ts',
      'packages/mock-server/test/query/versions.test.ts',
    ],
  },
  {
    name: 'query-search',
    mutate: ['packages/mock-server/src/query/search.ts'],
    tests: ['packages/mock-server/test/query/search.test.ts'],
  },
  {
    name: 'sdk-pagination',
    mutate: ['packages/sdk/src/core/pagination.ts'],
    tests: [
      'packages/sdk/test/pagination.test.ts',
      'tests/sdk/pagination.test.ts',
      'tests/sdk/client.test.ts',
    ],
  },
  {
    name: 'account-caps',
    mutate: ['packages/mock-server/src/domain/caps.ts'],
    tests: [
      'packages/mock-server/test/domain/caps.test.ts',
      'packages/mock-server/test/operations/caps.test.ts',
    ],
  },
];

/**
 * The modules of this run: all of them, or those named in `MUTATION_MODULES` (comma-separated). An
 * unknown name is an error, so that a typo does not pass as a run of nothing.
 *
 * @param {string | undefined} [names]
 * @returns {MutationModule[]}
 */
export function selectedModules(names = process.env.MUTATION_MODULES) {
  if (!names?.trim()) return MODULES;
  const wanted = names
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !MODULES.some((m) => m.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `MUTATION_MODULES names unknown modules: ${unknown.join(', ')}; the modules are ${MODULES.map((m) => m.name).join(', ')}`,
    );
  }
  return MODULES.filter((m) => wanted.includes(m.name));
}
