/**
 * Reads Stryker's JSON report (reports/mutation/mutation.json, the mutation-testing-report-schema) and
 * checks every module of modules.mjs against the goal: exits 1 when a module scores under it, or has no
 * mutant in the report (its file moved without modules.mjs following). Prints one line per module and
 * each surviving mutant as `file:line:column Mutator: original -> replacement`.
 *
 * The score is Stryker's: detected (killed or timed out) over valid mutants (detected, survived, not
 * covered); mutants ignored in the source (`// Stryker disable ...: reason`) and those named in the
 * module's `equivalent` list do not count; compile and runtime errors do not either.
 *
 * Usage: `node tools/mutation/check-scores.mjs [report.json]` (after `stryker run`; `pnpm test:mutation`
 * runs both). Honours `MUTATION_MODULES` like the Stryker config.
 */
import { readFileSync } from 'node:fs';
import { GOAL, selectedModules } from './modules.mjs';

const reportPath = process.argv[2] ?? 'reports/mutation/mutation.json';
/** @type {{ files: Record<string, { source: string, mutants: Mutant[] }> }} */
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

/**
 * @typedef {{ id: string, mutatorName: string, replacement?: string, status: string, statusReason?: string,
 *   location: { start: { line: number, column: number }, end: { line: number, column: number } } }} Mutant
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
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
};

/** Report paths may be relative or absolute, with either separator: compare by the repository path. */
const normalise = (/** @type {string} */ path) => path.replaceAll('\\', '/');
const reportFiles = Object.entries(report.files).map(([path, file]) => ({ path: normalise(path), file }));
const fileOf = (/** @type {string} */ wanted) =>
  reportFiles.find(({ path }) => path === wanted || path.endsWith(`/${wanted}`));

let failed = false;
const rows = [];
const details = [];
for (const module of selectedModules()) {
  const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, equivalent: 0, errors: 0 };
  const survivors = [];
  const equivalents = [];
  const unusedEquivalents = new Set(module.equivalent ?? []);
  const missing = [];
  for (const wanted of module.mutate) {
    const found = fileOf(wanted);
    if (!found) {
      missing.push(wanted);
      continue;
    }
    for (const mutant of found.file.mutants) {
      const original = originalText(found.file.source, mutant);
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
        case 'CompileError':
        case 'RuntimeError':
          counts.errors++;
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
          // Pending or unknown: the run did not finish this mutant.
          counts.errors++;
      }
    }
  }
  const detected = counts.killed + counts.timeout;
  const valid = detected + counts.survived + counts.noCoverage;
  const score = valid === 0 ? Number.NaN : (100 * detected) / valid;
  let verdict = 'ok';
  if (missing.length > 0) verdict = `FAIL: not in the report: ${missing.join(', ')}`;
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
  process.exit(1);
}
console.log(`\nEvery module reaches ${GOAL}%.`);
