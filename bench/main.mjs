#!/usr/bin/env node
/**
 * `pnpm bench`: the performance figures of issue 15, each a ratio against a baseline measured in the
 * same run (P4 and P6: absolute figures, labelled with the machine), printed as a table and written
 * as JSON with the machine's details and load. Not part of `pnpm test`. A slow figure never fails it;
 * a figure that could not be measured does (exit code 1). See docs/performance.md.
 *
 *   pnpm bench                      every benchmark, full sizes
 *   pnpm bench -- --only P1,P3      a subset
 *   pnpm bench:smoke                reduced sizes, 50 requests per row (CI: it runs, no timing asserted)
 *   pnpm bench -- --help            every option
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { cpuPinning } from './lib/cpus.mjs';
import { machine, load as machineLoad } from './lib/machine.mjs';
import { BENCH, checkBuilds, ROOT } from './lib/paths.mjs';
import { stopAll } from './lib/processes.mjs';
import { formatSummary, summarize } from './lib/profile.mjs';
import { failed } from './lib/rows.mjs';
import { median, num } from './lib/stats.mjs';

/** The benchmarks, in the order they run. */
const BENCHMARKS = {
  P1: './p1-standalone.mjs',
  P2: './p2-msw.mjs',
  P3: './p3-sdk.mjs',
  P4: './p4-scale.mjs',
  P5: './p5-receiver.mjs',
  P6: './p6-bundle.mjs',
  P7: './p7-peers.mjs',
  FA: './fa-first-answer.mjs',
  SE: './se-sessions.mjs',
  ST: './st-start.mjs',
  LB: './lb-loop-block.mjs',
};

const HELP = `Usage: pnpm bench [-- options]   (node bench/main.mjs [options])

  --only <ids>          run only these, comma-separated: ${Object.keys(BENCHMARKS).join(', ')} (FA: createMockServer() time to first answer; SE: a session's memory and creation time; ST: a test file's start (import, first answer, a session over HTTP); LB: the longest event-loop block of one request)
  --smoke               reduced sizes and 50 requests per row; checks that every row produces a figure
  --requests <n>        measured requests per row and round (default 500; smoke 50); P1 and P5 send
                        10 times as many: a raw server answers 500 in about 15 ms, too short a
                        span to read its CPU time steadily (4 times until 2026-11-27 evening); P2
                        and P3 make 4 times as many calls (as many until then), so that a round
                        spans about a second
  --warmup <n>          warm-up requests per row and round, not measured (default 200, P4 at most 20;
                        smoke 10): enough for V8 to optimise the request path before it is measured
  --concurrency <n>     requests in flight for the throughput rows, P1 and P5 (default 10)
  --rate <n>            P1 and P5: send the requests at this fixed rate, per second (0: as fast as each
                        connection gets its answers), so that subject and baseline see the same arrivals
                        (default 0)
  --idle-client         the load generator waits for answers without busy-polling (the method before
                        the record of 2026-11-27c): on a VM every answer then also pays for waking
                        the generator's halted CPU, the more often the slower the server; see
                        docs/performance.md, "The load generator busy-polls"
  --rounds <n>          alternating rounds of subject and baseline in the ratio rows (default 9; smoke 1);
                        a ratio is the median of the rounds' ratios; P1 and P5 run 2 settling rounds
                        first that do not count (none in the smoke run): a server's first two rounds
                        cost up to 40% more, however long its warm-up
  --row-seconds <n>     P4: stop a row after this many seconds even before --requests (default 30; smoke 15)
  --workspaces <n>      P4: workspaces of the primary account (default 100000; smoke 2000)
  --events <n>          P4: events of the primary account (default 1000000; smoke 20000)
  --processes <n>       FA and ST: fresh processes per side (default 7; smoke 2)
  --runs <n>            run the selected benchmarks n times in a row (default 1) and print how far each
                        figure moved: every CPU-time ratio is held to within ±10% of its median over
                        the runs (issue 25's goal for the method), other figures are shown, not held
  --out <file>          the JSON report (default bench/results/latest.json)
  --profile             also write a CPU profile of every measured process (bench/results/profiles/)
                        and print where the time went
  --help                this text
`;

/**
 * @typedef {object} Context
 * @property {boolean} smoke
 * @property {number} requests
 * @property {number | undefined} rate P1 and P5's fixed request rate per second (`undefined`: closed loop)
 * @property {number} serverRequests measured requests per round of the servers' rows (P1, P5): 10 x `requests`
 * @property {number} callRequests measured calls per round of the in-process rows (P2, P3): 4 x `requests`
 * @property {number} warmup
 * @property {number} concurrency
 * @property {number} rounds
 * @property {number} settlingRounds rounds P1 and P5 run first without counting them (2; smoke 0)
 * @property {number} rowSeconds
 * @property {{ workspaces: number, events: number }} sizes
 * @property {number} processes
 * @property {(name: string) => { execArgv: string[] }} serverOptions node flags for a measured process
 * @property {(message: string) => void} log a progress line (stderr)
 * @property {number} run which run this is, from 1 (`--runs`)
 */

function parseArgs(argv) {
  const smoke = argv.includes('--smoke');
  const options = {
    only: Object.keys(BENCHMARKS),
    smoke,
    requests: smoke ? 50 : 500,
    warmup: smoke ? 10 : 200,
    concurrency: 10,
    rate: 0,
    rounds: smoke ? 1 : 9,
    rowSeconds: smoke ? 15 : 30,
    workspaces: smoke ? 2000 : 100_000,
    events: smoke ? 20_000 : 1_000_000,
    processes: smoke ? 2 : 7,
    runs: 1,
    out: join(BENCH, 'results', 'latest.json'),
    profile: false,
    idleClient: false,
    help: false,
  };
  const numeric = {
    '--requests': ['requests', 1, 1_000_000],
    '--warmup': ['warmup', 0, 100_000],
    '--concurrency': ['concurrency', 1, 1000],
    '--rate': ['rate', 0, 1_000_000],
    '--rounds': ['rounds', 1, 100],
    '--row-seconds': ['rowSeconds', 1, 3600],
    '--workspaces': ['workspaces', 0, 100_000],
    '--events': ['events', 0, 1_000_000],
    '--processes': ['processes', 1, 100],
    '--runs': ['runs', 1, 10],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') continue;
    if (arg === '--smoke') continue;
    if (arg === '--profile') options.profile = true;
    else if (arg === '--idle-client') options.idleClient = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--only' || arg === '--out' || arg in numeric) {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--'))
        throw new Error(`${arg} expects a value, received nothing`);
      if (arg === '--out') options.out = resolve(value);
      else if (arg === '--only') {
        const ids = value
          .split(',')
          .map((s) => s.trim().toUpperCase())
          .filter(Boolean);
        const unknown = ids.filter((s) => !(s in BENCHMARKS));
        if (ids.length === 0 || unknown.length > 0) {
          throw new Error(
            `--only expects ids among ${Object.keys(BENCHMARKS).join(', ')}, comma-separated, received ${JSON.stringify(value)}`,
          );
        }
        options.only = Object.keys(BENCHMARKS).filter((key) => ids.includes(key));
      } else {
        const [key, min, max] = numeric[arg];
        const n = Number(value);
        if (!/^\d+$/.test(value) || n < min || n > max) {
          throw new Error(
            `${arg} expects a whole number from ${min} to ${max}, received ${JSON.stringify(value)}`,
          );
        }
        options[key] = n;
      }
    } else {
      throw new Error(`unknown option ${JSON.stringify(arg)}; see --help`);
    }
  }
  return options;
}

function pad(text, width) {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** The report as a Markdown table (it reads the same in a terminal). */
function table(rows) {
  const cells = rows.map((r) => [
    r.id,
    r.what,
    r.text,
    r.goal?.text ?? '-',
    r.met === null ? (r.figure === null ? 'ERROR' : '-') : r.met ? 'yes' : 'no',
  ]);
  const head = ['id', 'what', 'figure (subject vs baseline)', 'goal', 'met'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((x, i) => pad(x, widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

/**
 * Runs the benchmarks `keys` once, in order.
 * @param {string[]} keys
 * @param {Context} ctx
 */
async function runOnce(keys, ctx) {
  const { log } = ctx;
  const benchmarks = [];
  const all = [];
  for (const key of keys) {
    const module = await import(BENCHMARKS[key]);
    const loadBefore = machineLoad();
    log(`${key}: ${module.title} (load ${loadBefore.loadavg.join(' ')}) ...`);
    const t0 = performance.now();
    let rows;
    try {
      rows = await module.run(ctx);
    } catch (error) {
      rows = [failed(key, module.title, error)];
    }
    const seconds = (performance.now() - t0) / 1000;
    for (const r of rows)
      log(`  ${r.what}: ${r.text}${r.goal ? ` (goal ${r.goal.text}: ${r.met ? 'met' : 'not met'})` : ''}`);
    benchmarks.push({
      id: key,
      title: module.title,
      seconds: Math.round(seconds * 10) / 10,
      loadBefore,
      loadAfter: machineLoad(),
    });
    all.push(...rows);
  }
  return { benchmarks, rows: all };
}

/**
 * How far each figure moved over the runs: the figures, their median and the largest deviation from
 * it. A CPU-time ratio (`stable: 'cpu'`) is within the method's goal when every run is within ±10% of
 * the median; other figures are reported, not held.
 * @param {Array<{ rows: import('./lib/rows.mjs').Row[] }>} runs
 */
function stability(runs) {
  const byRow = new Map();
  for (const { rows } of runs) {
    for (const r of rows) {
      const key = `${r.id}\u0000${r.what}`;
      if (!byRow.has(key)) byRow.set(key, { id: r.id, what: r.what, held: r.stable === 'cpu', figures: [] });
      byRow.get(key).figures.push(r.figure);
    }
  }
  return [...byRow.values()].map((entry) => {
    const numbers = entry.figures.filter((f) => typeof f === 'number' && Number.isFinite(f));
    const mid = median(numbers);
    // A median of 0 (a row that measured nothing to do) moved only if another run measured more.
    const deviation =
      mid === 0
        ? numbers.some((f) => f !== 0)
          ? Number.POSITIVE_INFINITY
          : 0
        : Math.max(...numbers.map((f) => Math.abs(f / mid - 1)));
    return {
      ...entry,
      median: mid,
      maxDeviation: deviation,
      within10: entry.held ? numbers.length === runs.length && deviation <= 0.1 : null,
    };
  });
}

/** The stability record as a Markdown table. */
function stabilityTable(entries) {
  const cells = entries.map((e) => [
    e.id,
    e.what.length > 70 ? `${e.what.slice(0, 67)}...` : e.what,
    e.figures.map((f) => (typeof f === 'number' ? num(f) : '-')).join(', '),
    num(e.median),
    Number.isFinite(e.maxDeviation) ? `${(e.maxDeviation * 100).toFixed(1)}%` : '-',
    e.within10 === null ? '- (not held)' : e.within10 ? 'yes' : 'no',
  ]);
  const head = ['id', 'what', 'figures by run', 'median', 'largest deviation', 'within ±10%'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((x, i) => pad(x, widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${error.message}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(HELP);
    return;
  }
  let stale;
  try {
    stale = checkBuilds();
  } catch (error) {
    process.stderr.write(`bench: ${error.message}\n`);
    process.exit(2);
  }
  const log = (message) => process.stderr.write(`bench: ${message}\n`);
  if (stale.length > 0) {
    log(
      `warning: the sources of ${stale.join(', ')} changed after their build; run \`pnpm build\` to measure them`,
    );
  }
  const started = new Date();
  const profileDir = join(BENCH, 'results', 'profiles', started.toISOString().replace(/[:.]/g, '-'));
  if (options.profile) mkdirSync(profileDir, { recursive: true });
  /** @type {Context} */
  const ctx = {
    smoke: options.smoke,
    requests: options.requests,
    serverRequests: options.requests * 10,
    callRequests: options.requests * 4,
    rate: options.rate > 0 ? options.rate : undefined,
    warmup: options.warmup,
    concurrency: options.concurrency,
    rounds: options.rounds,
    settlingRounds: options.smoke ? 0 : 2,
    rowSeconds: options.rowSeconds,
    sizes: { workspaces: options.workspaces, events: options.events },
    processes: options.processes,
    serverOptions: (name) => ({
      execArgv: options.profile
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=${profileDir}`,
            `--cpu-prof-name=${options.runs > 1 ? `run${ctx.run}-` : ''}${name}.cpuprofile`,
          ]
        : [],
    }),
    log,
    run: 1,
  };
  const info = machine();
  if (options.idleClient) process.env.IACM_BENCH_IDLE_CLIENT = '1';
  const pinning = cpuPinning();
  const report = {
    schema: 1,
    startedAt: started.toISOString(),
    command: `node bench/main.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    options: { ...options, out: relative(ROOT, options.out) },
    machine: info,
    pinning: pinning.text,
    load: { before: machineLoad(), after: undefined },
    staleBuilds: stale,
    benchmarks: [],
    rows: [],
    runs: [],
  };
  log(
    `${info.cpuCount} x ${info.cpuModel}, ${Math.round(info.totalMemoryBytes / 2 ** 30)} GiB, Node ${info.node}, ` +
      `load ${report.load.before.loadavg.join(' ')}; ${pinning.text}`,
  );
  for (let run = 1; run <= options.runs; run++) {
    if (options.runs > 1) log(`run ${run} of ${options.runs} (load ${machineLoad().loadavg.join(' ')})`);
    ctx.run = run;
    const one = await runOnce(options.only, ctx);
    report.runs.push({ run, ...one });
    report.benchmarks = one.benchmarks;
    report.rows = one.rows;
    if (options.runs > 1) process.stdout.write(`\nRun ${run} of ${options.runs}:\n${table(one.rows)}\n`);
  }
  if (options.runs > 1) report.stability = stability(report.runs);
  if (options.profile) {
    report.profiles = [];
    for (const file of readdirSync(profileDir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort()) {
      const summary = summarize(join(profileDir, file));
      report.profiles.push(summary);
      log(`profile\n${formatSummary(summary)}`);
    }
  }
  report.load.after = machineLoad();
  report.finishedAt = new Date().toISOString();
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  const load = `load average ${report.load.before.loadavg.join(' ')} before, ${report.load.after.loadavg.join(' ')} after`;
  const held = report.stability?.filter((e) => e.within10 !== null) ?? [];
  const stable =
    report.stability === undefined
      ? ''
      : `\nOver ${options.runs} runs:\n${stabilityTable(report.stability)}\n` +
        `${held.filter((e) => e.within10).length} of ${held.length} CPU-time ratios stayed within ±10% of their median.\n`;
  process.stdout.write(
    `${options.runs > 1 ? '' : `\n${table(report.rows)}\n`}${stable}\n${info.cpuCount} x ${info.cpuModel}, Node ${info.node}, ${info.os}; ${load}; ${pinning.text}.\n` +
      `Written to ${relative(ROOT, options.out)}.\n`,
  );
  const missing = report.rows.filter((r) => typeof r.figure !== 'number' || !Number.isFinite(r.figure));
  if (missing.length > 0) {
    process.stderr.write(
      `bench: ${missing.length} row(s) produced no figure: ${missing.map((r) => `${r.id} ${r.what}`).join('; ')}\n`,
    );
    process.exitCode = 1;
  } else if (options.smoke) {
    process.stdout.write(
      `Smoke run: all ${report.rows.length} rows produced a figure (no timing is asserted).\n`,
    );
  }
}

process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}
await main();
