import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { API_ERRORS, statusOfCode } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

/** Codes only an injected fault answers with (see `codeFor` in src/pipeline/faults.ts): not API codes. */
const FAULT_ONLY_CODES = ['request_timeout', 'fault'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every `new HttpError(<status>, '<code>'` (and `httpError(` helper call) with literal arguments. */
function literalPairs(): Array<{ where: string; status: number; code: string }> {
  const pairs: Array<{ where: string; status: number; code: string }> = [];
  const pattern = /(?:new HttpError|\bhttpError)\(\s*(\d{3})\s*,\s*'([a-z_]+)'/g;
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      pairs.push({
        where: `${relative(SRC, file)}:${line}`,
        status: Number(match[1]),
        code: match[2] as string,
      });
    }
  }
  return pairs;
}

describe('HTTP status and error code in the mock server', () => {
  it('every literal HttpError pairs its code with the status the contract gives it', () => {
    const pairs = literalPairs();
    // The scan must see the errors the mock raises, or it checks nothing.
    expect(pairs.length).toBeGreaterThan(10);
    const wrong = pairs
      .filter(({ status, code }) => statusOfCode(code) !== status)
      .map(({ where, status, code }) => `${where}: ${status} ${code} (contract: ${statusOfCode(code)})`);
    expect(wrong).toEqual([]);
  });

  it('the fault stage invents codes only for statuses the contract table lacks', () => {
    const text = readFileSync(join(SRC, 'pipeline', 'faults.ts'), 'utf8');
    const body = text.slice(text.indexOf('function codeFor'));
    const codes = [...body.slice(0, body.indexOf('\n}')).matchAll(/'([a-z_]+)'/g)].map((m) => m[1] as string);
    const invented = codes.filter((code) => !Object.hasOwn(API_ERRORS, code));
    expect(invented.sort()).toEqual([...FAULT_ONLY_CODES].sort());
    const tableStatuses = new Set<number>(Object.values(API_ERRORS).map((entry) => entry.status));
    expect(tableStatuses.has(408)).toBe(false);
  });
});
