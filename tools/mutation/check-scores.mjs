/**
 * Reads the JSON report of each module's Stryker run (`reports/mutation/<module>.json`, the
 * mutation-testing-report-schema) and checks every module of modules.mjs against the goal: fails when a
 * module scores under it, has no report, or has no mutant in its report (its file moved without
 * modules.mjs following). Prints one line per module and each surviving mutant as
 * `file:line:column Mutator: original -> replacement`.
 *
 * The score is Stryker's: detected (killed or timed out) over valid mutants (detected, survived, not
 * covered); mutants ignored in the source (`// Stryker disable ...: reason`) and those named in the
 * module's `equivalent` list do not count; compile and runtime errors do not either.
 *
 * run.mjs calls {@link checkScores} after its runs; `node tools/mutation/check-scores.mjs` checks the
 * reports already there (honouring `MUTATION_MODULES`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GOAL, selectedModules } from './modules.mjs';

/** Where each module's report is written (stryker.config.mjs) and read. */
export const REPORT_DIR = 'reports/mutation';

/**
 * @typedef {{ id: string, mutatorName: string, replacement?: string, status: string, statusReason?: string,
 *   location: { start: { line: number, column: number }, end: { line: number, column: number } } }} Mutant
 * @typedef {{ files: Record<string, { source: string, mutants: Mutant[] }> }} Report
 */

/** The text a mutant replaces (lines and columns are 1-based, the end column exclusive). */
function originalText(/** @type {string} */ source, /** @type {Mutant} */ mutant) {
  const lines = source.split('\n');
  const { start, end } = mutant.location;
  if (start.line === end.line) return (lines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1);
  const first = (lines[start.line - 1] ?? '').slice(start.column - 1);
  const middle = lines.slice(start.line, end.line - 1);
  const last = (lines[end.line - 1] ?? '').slice(0, end.column - 1);
  return [first, ...middle, last].join('\n');
}

const oneLine = (/** @type {string} */ text) => {
  // A replacement keeps the comments before the mutated code (a `// Stryker ...` line): drop them.
  const flat = text
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
};

/** Report paths may be relative or absolute, with either separator: compare by the repository path. */
const normalise = (/** @type {string} */ path) => path.replaceAll('\\', '/');

/**
 * Checks the modules' reports against the goal and prints the table and the survivors.
 *
 * @param {import('./modules.mjs').MutationModule[]} modules
 * @param {(module: import('./modules.mjs').MutationModule) => string} reportPath
 * @returns {boolean} whether every module reaches the goal
 */
export function checkScores(modules, reportPath) {
  let failed = false;
  const rows = [];
  const details = [];
  for (const module of modules) {
    const counts = {
      killed: 0,
      timeout: 0,
      survived: 0,
      noCoverage: 0,
      ignored: 0,
      equivalent: 0,
      errors: 0,
    };
    const survivors = [];
    const equivalents = [];
    const unusedEquivalents = new Set(module.equivalent ?? []);
    const missing = [];
    const path = reportPath(module);
    /** @type {Report | undefined} */
    const report = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
    const reportFiles = Object.entries(report?.files ?? {}).map(([file, data]) => ({
      path: normalise(file),
      data,
    }));
    for (const wanted of module.mutate) {
      const found = reportFiles.find(({ path }) => path === wanted || path.endsWith(`/${wanted}`));
      if (!found) {
        missing.push(wanted);
        continue;
      }
      for (const mutant of found.data.mutants) {
        const original = originalText(found.data.source, mutant);
        const where = `${wanted}:${mutant.location.start.line}:${mutant.location.start.column}`;
        const what = `${mutant.mutatorName}: ${oneLine(original)} -> ${oneLine(mutant.replacement ?? '')}`;
        switch (mutant.status) {
          case 'Killed':
            counts.killed++;
            break;
          case 'Timeout':
            counts.timeout++;
            break;
          case 'Ignored':
            counts.ignored++;
            equivalents.push(`${where} ${what} (ignored: ${mutant.statusReason ?? 'no reason given'})`);
            break;
          case 'Survived':
          case 'NoCoverage': {
            const equivalent = (module.equivalent ?? []).find(
              (e) =>
                e.file === wanted &&
                e.mutator === mutant.mutatorName &&
                oneLine(e.original) === oneLine(original) &&
                oneLine(e.replacement) === oneLine(mutant.replacement ?? ''),
            );
            if (equivalent) {
              unusedEquivalents.delete(equivalent);
              counts.equivalent++;
              equivalents.push(`${where} ${what} (equivalent: ${equivalent.reason})`);
            } else {
              counts[mutant.status === 'Survived' ? 'survived' : 'noCoverage']++;
              survivors.push(`${where} ${mutant.status === 'Survived' ? '' : '[no coverage] '}${what}`);
            }
            break;
          }
          default:
            // CompileError, RuntimeError, or Pending (the run did not finish this mutant).
            counts.errors++;
        }
      }
    }
    const detected = counts.killed + counts.timeout;
    const valid = detected + counts.survived + counts.noCoverage;
    const score = valid === 0 ? Number.NaN : (100 * detected) / valid;
    let verdict = 'ok';
    if (!report) verdict = `FAIL: no report (${path})`;
    else if (missing.length > 0) verdict = `FAIL: not in the report: ${missing.join(', ')}`;
    else if (valid === 0) verdict = 'FAIL: no mutants';
    else if (score < GOAL) verdict = `FAIL: under ${GOAL}%`;
    if (verdict !== 'ok') failed = true;
    rows.push({
      module: module.name,
      score: Number.isNaN(score) ? '-' : `${score.toFixed(2)}%`,
      killed: counts.killed,
      timeout: counts.timeout,
      survived: counts.survived,
      'no coverage': counts.noCoverage,
      'ignored/equivalent': counts.ignored + counts.equivalent,
      errors: counts.errors,
      verdict,
    });
    if (survivors.length > 0 || equivalents.length > 0 || unusedEquivalents.size > 0) {
      details.push(`\n${module.name}:`);
      for (const line of survivors) details.push(`  survived  ${line}`);
      for (const line of equivalents) details.push(`  excluded  ${line}`);
      for (const e of unusedEquivalents) {
        details.push(
          `  stale equivalent entry (matches no surviving mutant; remove it): ${e.file} ${e.mutator}: ${oneLine(e.original)} -> ${oneLine(e.replacement)}`,
        );
      }
    }
  }

  console.log(`\nMutation score per module (goal: ${GOAL}% each; timeouts count as killed)\n`);
  console.table(rows);
  if (details.length > 0) console.log(details.join('\n'));
  if (failed) {
    console.error(
      `\nA module is under the goal of ${GOAL}% (see above). Kill its surviving mutants with tests, or, only ` +
        'for a mutant no test can tell apart (equivalent), mark it with its reason (tools/mutation/modules.mjs).',
    );
  } else {
    console.log(`\nEvery module reaches ${GOAL}%.`);
  }
  return !failed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ok = checkScores(selectedModules(), (module) => `${REPORT_DIR}/${module.name}.json`);
  process.exitCode = ok ? 0 : 1;
}
