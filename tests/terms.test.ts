/**
 * One user-facing term per concept (issue 33): the "Terms" table of docs/architecture.md names each
 * concept's term and the words not used for it; none of those words appears in the user docs (every
 * Markdown file of docs/, the READMEs, CONTRIBUTING.md, the examples) or in a message of the sources
 * (a string or template literal on a line that is not a comment). The table is the one declaration:
 * this test reads it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The rows of the "Terms" table: each term and the words not used for it. */
function termsTable(): Array<{ term: string; not: string[] }> {
  const text = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const start = text.indexOf('### Terms');
  if (start < 0) throw new Error('docs/architecture.md has no "### Terms" section');
  const section = text.slice(start, text.indexOf('\n### ', start + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| term') && !line.startsWith('| ---'))
    .map((line) => {
      const [term = '', not = ''] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return { term, not: not.split(',').map((word) => word.trim()) };
    });
}

/** Every file under `dir` (no node_modules, dist or generated docs) whose name ends with one of `ends`. */
function files(dir: string, ends: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (['node_modules', 'dist', 'api', '.docs-code-run', 'CHANGELOG.md'].includes(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, ends));
    else if (ends.some((end) => name.endsWith(end))) out.push(path);
  }
  return out;
}

/** The text of the user docs, by file (docs/architecture.md holds the internal names, and the table). */
function userDocs(): Array<[string, string]> {
  const docs = files(join(root, 'docs'), ['.md']).filter((f) => !f.endsWith('architecture.md'));
  const readmes = ['README.md', 'CONTRIBUTING.md', ...files(join(root, 'packages'), ['README.md'])].map(
    (f) => (f.startsWith(root) ? f : join(root, f)),
  );
  const examples = files(join(root, 'examples'), ['.md', '.ts']);
  return [...docs, ...readmes, ...examples].map((f) => [relative(root, f), readFileSync(f, 'utf8')]);
}

/** The literals of the source lines that are not comments, by file: where messages are written. */
function sourceMessages(): Array<[string, string]> {
  return files(join(root, 'packages'), ['.ts'])
    .filter((f) => f.includes('/src/'))
    .map((f) => {
      const lines = readFileSync(f, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line));
      const literals = lines.join('\n').match(/'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|"(?:[^"\\\n]|\\.)*"/g);
      return [relative(root, f), (literals ?? []).join('\n')] as [string, string];
    });
}

/** A word as a pattern: whole words, any case, any white space between them. */
const wordPattern = (word: string) =>
  new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}\\b`, 'i');

describe('one user-facing term per concept (docs/architecture.md, "Terms")', () => {
  const table = termsTable();

  it('the table names terms, each with the words not used for it', () => {
    expect(table.length).toBeGreaterThanOrEqual(5);
    for (const { term, not } of table) {
      expect(term).not.toBe('');
      expect(not.every((word) => word.length > 0)).toBe(true);
    }
  });

  it('no user doc and no message of the sources uses a word the table rules out', () => {
    const texts = [...userDocs(), ...sourceMessages()];
    const found: string[] = [];
    for (const { term, not } of table) {
      for (const word of not) {
        const pattern = wordPattern(word);
        for (const [file, text] of texts) {
          if (pattern.test(text)) found.push(`${file}: "${word}" (the term is "${term}")`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('finds a ruled-out word where it is written (the check can fail)', () => {
    const [row] = table;
    const word = row?.not[0] ?? '';
    expect(wordPattern(word).test(`A message about the ${word.toUpperCase()} here.`)).toBe(true);
    expect(wordPattern(word).test(`A message about the ${word}s here.`)).toBe(false);
  });
});
