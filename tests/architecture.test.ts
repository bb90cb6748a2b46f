/**
 * The layering rules (issue 12; docs/architecture.md draws them), checked over the imports of every source file of every
 * package, `packages/<name>/src` (value and type imports, `export ... from` and dynamic imports alike):
 *
 * - no import cycle between the files of a package;
 * - in every package, imports point down that package's layers ({@link LAYERS}) only;
 * - no relative import leaves its package (import a sibling through its name, e.g. `@iacm/sdk/contract`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const packagesDir = fileURLToPath(new URL('../packages', import.meta.url));

/** One package's layers, top to bottom. */
type Layers = readonly { layer: string; segments: readonly string[] }[];

/**
 * The mock server's layers, top to bottom: a file may import files of its own layer or of a lower one.
 * A layer is assigned by the first path segment under `packages/mock-server/src/` (a folder, or a file
 * directly in `src/`). A new folder (or a new file directly in `src/`) must be added here, with a comment
 * saying why it sits where it does; the test fails until it is.
 */
const MOCK_LAYERS: Layers = [
  // Entry points: the package's public entries (remote.ts: the standalone mock's typed control client) and the CLI.
  {
    layer: 'entry',
    segments: ['index.ts', 'node.ts', 'cli.ts', 'vitest.ts', 'remote.ts', 'vitest-setup.ts'],
  },
  // MSW and node:http adapters, CLI option parsing, the landing page and the request log.
  { layer: 'adapters', segments: ['adapters'] },
  // The top of the core: MockCore, which wires every part below; its options; reset; its own secrets.
  { layer: 'app', segments: ['app'] },
  // The control plane (`/__mock`): it drives the stages' state (journal, faults, rate limit, clock) and
  // the domain, so it sits above both; nothing below may reach it.
  { layer: 'control', segments: ['control'] },
  // The request pipeline: the stages of an API request and their composition.
  { layer: 'pipeline', segments: ['pipeline'] },
  // One module per API group (the pipeline's route stage calls them).
  { layer: 'operations', segments: ['operations'] },
  // Authentication: login, tokens (JWT), the verified-token cache, and the window counter the login
  // throttle and the rate limit count with. Below the pipeline and the operations that use it.
  { layer: 'auth', segments: ['auth'] },
  // The engine: guardrail evaluation, findings, events and webhooks, plans, simulated runs.
  { layer: 'domain', segments: ['domain'] },
  // The account state, its seed and its random generator.
  { layer: 'store', segments: ['store'] },
  // Collections, comparison, search.
  { layer: 'query', segments: ['query'] },
  // The bottom: the plain request and response types and their helpers (`http/`), error types, and
  // `version.ts`, a constant that imports nothing.
  { layer: 'base', segments: ['http', 'errors.ts', 'errors', 'version.ts'] },
];

/** The SDK's layers: the client over its resources, over the request pipeline, over the contract. */
const SDK_LAYERS: Layers = [
  // The package entry and the client class that assembles the resources.
  { layer: 'entry', segments: ['index.ts', 'client.ts'] },
  // `@iacm/sdk/openapi`: the OpenAPI document, built from the contract alone.
  { layer: 'openapi', segments: ['openapi'] },
  // One file per API group.
  { layer: 'resources', segments: ['resources'] },
  // The request pipeline, errors, logging, options, pagination.
  { layer: 'core', segments: ['core'] },
  // `@iacm/sdk/contract`: schemas, the endpoint table, the error table; imports nothing of the SDK.
  { layer: 'contract', segments: ['contract'] },
];

/** The receiver's layers: adapters over the transport-free receiver, over its parts, over its errors. */
const RECEIVER_LAYERS: Layers = [
  { layer: 'entry', segments: ['index.ts'] },
  // node:http, Express, Fastify and fetch-style adapters.
  { layer: 'adapters', segments: ['node.ts', 'fetch.ts'] },
  // The core: verify(headers, rawBody).
  { layer: 'receiver', segments: ['receiver.ts'] },
  // The key and shape of handle()'s steps, which the receiver offers and the Node adapter calls.
  { layer: 'steps', segments: ['steps.ts'] },
  // Its parts: reading the body, credentials, the payload schema, test deliveries.
  { layer: 'parts', segments: ['body.ts', 'credentials.ts', 'schema.ts', 'testing.ts'] },
  // The schema's fast path: compiled schemas, made in a timer after a type's second delivery; below
  // the schema that consults it, above the compiler it calls.
  { layer: 'fast-path', segments: ['fast-path.ts'] },
  // zod's compiler, called by the fast path only.
  { layer: 'compiler', segments: ['compiled.ts'] },
  // The SHA-256 the credential check compares digests with: plain computation, imports nothing.
  { layer: 'digest', segments: ['sha256.ts'] },
  // The bottom: the typed errors and their statuses.
  { layer: 'errors', segments: ['errors.ts'] },
];

/**
 * Each package's layers. A layer is assigned by the first path segment under `packages/<name>/src/`
 * (a folder, or a file directly in `src/`); a new one must be added, with a comment saying why it sits
 * where it does: the test fails until it is.
 */
const LAYERS: Readonly<Record<string, Layers>> = {
  'mock-server': MOCK_LAYERS,
  sdk: SDK_LAYERS,
  'webhook-receiver': RECEIVER_LAYERS,
};

/**
 * Violations being removed by a restructuring in progress (files another change owns). Each entry is
 * a line of the test's report; an entry that no longer occurs fails the test too, so that the list only
 * shrinks. Do not add to it: fix the import instead.
 */
const KNOWN_VIOLATIONS: readonly string[] = [];

/**
 * The sibling packages each package may depend on at run time (`dependencies` and `peerDependencies`):
 * the receiver and the SDK on none (the receiver bundles the contract it imports as a devDependency),
 * the mock server on both.
 */
const RUNTIME_SIBLINGS: Record<string, readonly string[]> = {
  sdk: [],
  'webhook-receiver': [],
  'mock-server': ['@iacm/sdk', '@iacm/webhook-receiver'],
};

/** The source files and their relative imports, as paths relative to `packages/`. */
interface ImportGraph {
  /** Each file's relative imports, resolved (`./x.js` is `x.ts`); package imports are not listed. */
  imports: Map<string, string[]>;
}

/** Sorted relative paths of the `.ts` files under `dir`. */
function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(c|m)?tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The file a relative specifier names (`./x.js` is `./x.ts`), relative to `packages/`. */
function resolveSpecifier(from: string, specifier: string): string {
  const base = resolve(dirname(join(packagesDir, from)), specifier);
  const stem = base.replace(/\.(c|m)?jsx?$/, '');
  const candidates = [
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    base,
    join(base, 'index.ts'),
  ];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return relative(packagesDir, found ?? base);
}

/** The import graph of every file under `packages/<name>/src`. */
function readGraph(): ImportGraph {
  const imports = new Map<string, string[]>();
  for (const pkg of readdirSync(packagesDir).sort()) {
    const src = join(packagesDir, pkg, 'src');
    if (!existsSync(src)) continue;
    for (const path of sourceFiles(src)) {
      const file = relative(packagesDir, path);
      const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
      imports.set(
        file,
        importedFiles
          .filter(({ fileName }) => fileName.startsWith('.'))
          .map(({ fileName }) => resolveSpecifier(file, fileName)),
      );
    }
  }
  return { imports };
}

/** The package a path relative to `packages/` belongs to. */
const packageOf = (file: string) => file.split('/')[0] ?? '';

/** The layer of a package's source file (its rank: 0 is the top), or undefined outside packages/<name>/src. */
function layerOf(file: string): { layer: string; rank: number } | undefined {
  const match = /^([^/]+)\/src\/([^/]+)/.exec(file);
  if (!match?.[1] || !match[2]) return undefined;
  const [, pkg, segment] = match;
  const layers = LAYERS[pkg];
  const rank = layers ? layers.findIndex((entry) => entry.segments.includes(segment)) : -1;
  if (!layers || rank < 0) {
    throw new Error(
      `packages/${file}: packages/${pkg}/src/${segment} has no layer: add it to LAYERS in ` +
        'tests/architecture.test.ts, with a comment saying why it sits there',
    );
  }
  return { layer: layers[rank]?.layer ?? '', rank };
}

/** Cycles among the local imports: one cycle per strongly connected component, from its smallest file. */
function findCycles(imports: Map<string, string[]>): string[][] {
  const edges = (file: string) => (imports.get(file) ?? []).filter((target) => imports.has(target));
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const target of edges(file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || edges(file).includes(file)) components.push(component.sort());
    }
  };
  for (const file of [...imports.keys()].sort()) if (!index.has(file)) visit(file);
  // A cycle through each component: the shortest way back to its smallest file (breadth first).
  return components.map((component) => {
    const members = new Set(component);
    const start = component[0] ?? '';
    const previous = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift() ?? '';
      for (const target of [...edges(file)].sort()) {
        if (!members.has(target)) continue;
        if (target === start) {
          const path = [start];
          for (let at: string | undefined = file; at !== undefined && at !== start; at = previous.get(at)) {
            path.unshift(at);
          }
          path.unshift(start);
          return path;
        }
        if (!previous.has(target)) {
          previous.set(target, file);
          queue.push(target);
        }
      }
    }
    return component;
  });
}

/** Every violation of the rules in the graph, as report lines (paths relative to `packages/`). */
function violations(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const cycle of findCycles(graph.imports)) found.push(`cycle: ${cycle.join(' -> ')}`);
  for (const [file, targets] of graph.imports) {
    for (const target of targets) {
      if (target.startsWith('..') || packageOf(target) !== packageOf(file)) {
        found.push(`leaves its package: ${file} -> ${target}`);
        continue;
      }
      if (!graph.imports.has(target)) continue;
      const from = layerOf(file);
      const to = layerOf(target);
      if (from && to && to.rank < from.rank) {
        found.push(`upward (${from.layer} -> ${to.layer}): ${file} -> ${target}`);
      }
    }
  }
  return [...new Set(found)].sort();
}

describe('the layering rules', () => {
  it('finds a cycle, an upward import and an import out of the package in a small graph', () => {
    const graph: ImportGraph = {
      imports: new Map([
        ['mock-server/src/domain/a.ts', ['mock-server/src/store/b.ts']],
        ['mock-server/src/store/b.ts', ['mock-server/src/domain/a.ts']],
        ['mock-server/src/store/c.ts', ['mock-server/src/query/d.ts', 'mock-server/src/errors.ts']],
        ['mock-server/src/query/d.ts', []],
        ['mock-server/src/errors.ts', []],
        ['webhook-receiver/src/schema.ts', ['sdk/src/contract/webhooks.ts']],
        ['sdk/src/contract/webhooks.ts', []],
      ]),
    };
    expect(violations(graph)).toEqual([
      'cycle: mock-server/src/domain/a.ts -> mock-server/src/store/b.ts -> mock-server/src/domain/a.ts',
      'leaves its package: webhook-receiver/src/schema.ts -> sdk/src/contract/webhooks.ts',
      'upward (store -> domain): mock-server/src/store/b.ts -> mock-server/src/domain/a.ts',
    ]);
  });

  it('sees the imports the merged core layer of 3d60dc0 hid (issue 21): stages up to the app, login up to the pipeline, control up to the app', () => {
    const graph: ImportGraph = {
      imports: new Map([
        ['mock-server/src/app/mock.ts', ['mock-server/src/control/plane.ts']],
        ['mock-server/src/control/plane.ts', ['mock-server/src/pipeline/faults.ts']],
        ['mock-server/src/control/access.ts', ['mock-server/src/app/secrets.ts']],
        ['mock-server/src/pipeline/faults.ts', ['mock-server/src/app/mock.ts']],
        ['mock-server/src/pipeline/rate-limit.ts', ['mock-server/src/auth/window-counter.ts']],
        ['mock-server/src/auth/window-counter.ts', []],
        ['mock-server/src/auth/login.ts', ['mock-server/src/pipeline/rate-limit.ts']],
        ['mock-server/src/operations/auth.ts', ['mock-server/src/auth/login.ts']],
        ['mock-server/src/app/secrets.ts', []],
      ]),
    };
    expect(violations(graph)).toEqual([
      'cycle: mock-server/src/app/mock.ts -> mock-server/src/control/plane.ts -> mock-server/src/pipeline/faults.ts -> mock-server/src/app/mock.ts',
      'upward (auth -> pipeline): mock-server/src/auth/login.ts -> mock-server/src/pipeline/rate-limit.ts',
      'upward (control -> app): mock-server/src/control/access.ts -> mock-server/src/app/secrets.ts',
      'upward (pipeline -> app): mock-server/src/pipeline/faults.ts -> mock-server/src/app/mock.ts',
    ]);
  });

  it('finds a longer cycle and names its path', () => {
    const graph: ImportGraph = {
      imports: new Map([
        ['sdk/src/core/a.ts', ['sdk/src/core/b.ts']],
        ['sdk/src/core/b.ts', ['sdk/src/core/c.ts']],
        ['sdk/src/core/c.ts', ['sdk/src/core/a.ts']],
      ]),
    };
    expect(violations(graph)).toEqual([
      'cycle: sdk/src/core/a.ts -> sdk/src/core/b.ts -> sdk/src/core/c.ts -> sdk/src/core/a.ts',
    ]);
  });

  it('finds an upward import in the SDK and in the receiver', () => {
    const graph: ImportGraph = {
      imports: new Map([
        ['sdk/src/contract/a.ts', ['sdk/src/core/b.ts']],
        ['sdk/src/core/b.ts', []],
        ['webhook-receiver/src/errors.ts', ['webhook-receiver/src/receiver.ts']],
        ['webhook-receiver/src/receiver.ts', []],
      ]),
    };
    expect(violations(graph)).toEqual([
      'upward (contract -> core): sdk/src/contract/a.ts -> sdk/src/core/b.ts',
      'upward (errors -> receiver): webhook-receiver/src/errors.ts -> webhook-receiver/src/receiver.ts',
    ]);
  });

  it('asks for a layer for a folder that has none', () => {
    expect(() => layerOf('mock-server/src/somewhere/new.ts')).toThrow(/add it to LAYERS/);
  });

  it('lets each package depend at run time only on the siblings it may', () => {
    for (const pkg of readdirSync(packagesDir).sort()) {
      const manifestPath = join(packagesDir, pkg, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      const siblings = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
        .filter((name) => name.startsWith('@iacm/'))
        .sort();
      expect(siblings, `packages/${pkg}/package.json: run-time dependencies on sibling packages`).toEqual(
        RUNTIME_SIBLINGS[pkg] ?? [],
      );
    }
  });

  it('holds for every source file of every package', () => {
    const graph = readGraph();
    expect(graph.imports.size).toBeGreaterThan(50);
    const found = violations(graph);
    expect(
      found.filter((line) => !KNOWN_VIOLATIONS.includes(line)),
      'import cycles, upward imports or imports out of a package (docs/architecture.md)',
    ).toEqual([]);
    expect(
      KNOWN_VIOLATIONS.filter((line) => !found.includes(line)),
      'these known violations are gone: remove them from KNOWN_VIOLATIONS',
    ).toEqual([]);
  });

  it("imports zod as a namespace everywhere and re-exports none of it, so that bundlers can drop what is not used (zod's locales)", () => {
    const named: string[] = [];
    for (const pkg of ['sdk', 'webhook-receiver', 'mock-server']) {
      for (const file of sourceFiles(join(packagesDir, pkg, 'src'))) {
        const text = readFileSync(file, 'utf8');
        // `import { z } from 'zod'` takes the namespace object as a value: every locale comes along.
        if (/import\s+(type\s+)?\{[^}]*\bz\b[^}]*\}\s+from\s+'zod(\/v4)?'/.test(text))
          named.push(relative(packagesDir, file));
        // `export * from 'zod/mini'` makes the SDK's build hold zod's namespace as a value too: the
        // client grew from 33 to 107 kB min+gzip when the contract's zod module did it.
        if (/export\s+\*\s+(as\s+\w+\s+)?from\s+'zod/.test(text)) named.push(relative(packagesDir, file));
      }
    }
    expect(named, "use `import * as z from 'zod/mini'`, never `export *` of zod (docs/sdk.md, Size)").toEqual(
      [],
    );
  });

  it("keeps the control table's declaration half and the remote client free of the core, msw and node: (the client is generated from it)", () => {
    const start = [
      ...['table.ts', 'declare.ts', 'docs-table.ts', 'remote-wire.ts'].map(
        (f) => `mock-server/src/control/${f}`,
      ),
      'mock-server/src/remote.ts',
    ];
    const seen = new Set<string>();
    const packages = new Set<string>();
    const queue = [...start];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const { importedFiles } = ts.preProcessFile(readFileSync(join(packagesDir, file), 'utf8'), true, true);
      for (const { fileName } of importedFiles) {
        if (fileName.startsWith('.')) queue.push(resolveSpecifier(file, fileName));
        else packages.add(fileName);
      }
    }
    const files = [...seen].map((f) => f.replace('mock-server/src/', '')).sort();
    const core = files.filter(
      (f) =>
        /^(app|adapters)\//.test(f) ||
        /^control\/(handlers|bind|plane|router|routes|serve|access)\.ts$/.test(f) ||
        /^(index|node|cli|vitest)\.ts$/.test(f),
    );
    expect(core, 'the declarations reach the core').toEqual([]);
    expect(
      [...packages].filter((name) => name === 'msw' || name.startsWith('msw/') || name.startsWith('node:')),
    ).toEqual([]);
    expect(files).toContain('control/table.ts');
    expect(files).toContain('remote.ts');
  });
});
