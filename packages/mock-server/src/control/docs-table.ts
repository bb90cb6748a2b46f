/**
 * The control plane's tables as the docs show them, derived from the control table: the capabilities
 * (`docs/mock-server.md`, between the `control-table` markers; written by `pnpm docs:control`, and a
 * test fails when they differ) and the CLI help lines of the flags that set the same concepts at start.
 *
 * @module
 */
import { type AnyControlDeclaration, type ControlTable, controlRows } from './declare.js';

/** The marker lines around the generated table in `docs/mock-server.md`. */
export const CONTROL_DOCS_MARKERS = Object.freeze({
  start: '<!-- control-table:start (generated from control/table.ts by `pnpm docs:control`) -->',
  end: '<!-- control-table:end -->',
});

/** A cell's text with the characters a Markdown table cannot hold escaped. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The in-process form of a row: `control.name(params)`, with `await` for a method that answers a Promise. */
function inProcess(name: string, row: AnyControlDeclaration): string {
  if (!row.call) return row.docs?.call ?? '–';
  const form = row.call.docs ?? `control.${name}(${(row.call.params ?? []).join(', ')})`;
  return row.call.sync ? `\`${form}\`` : `\`await ${form}\``;
}

/** The request of a row: its own route, or the request its `via` row's route takes. */
function requestOf(rows: ReadonlyMap<string, AnyControlDeclaration>, row: AnyControlDeclaration): string {
  if (row.docs?.request) return row.docs.request;
  const route = row.route ?? (row.via ? rows.get(row.via)?.route : undefined);
  return route ? `\`${route.method} ${route.path}\`` : 'none';
}

/** The docs table of a control table (default columns: request, in-process method, what it does). */
export function controlDocsTable(table: ControlTable): string {
  const lines = ['| Request | In-process | What it does |', '| --- | --- | --- |'];
  const rows = new Map(controlRows(table));
  for (const [name, row] of rows) {
    const via = row.via ? rows.get(row.via)?.route?.summary : undefined;
    const about = row.docs?.about ?? row.route?.summary ?? via ?? '';
    lines.push(`| ${cell(requestOf(rows, row))} | ${cell(inProcess(name, row))} | ${cell(about)} |`);
  }
  return lines.join('\n');
}

/**
 * A Markdown table reduced to its cells (each trimmed), its separator row left out: what a formatter
 * changes (padding, the dashes' length) does not count when the generated table is compared.
 */
export function tableCells(markdown: string): string[][] {
  return markdown
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|') && !/^\|[\s:|-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

/** The text between the markers of `docs/mock-server.md` (`undefined` when a marker is missing). */
export function generatedSection(document: string): string | undefined {
  const start = document.indexOf(CONTROL_DOCS_MARKERS.start);
  const end = document.indexOf(CONTROL_DOCS_MARKERS.end);
  if (start < 0 || end < start) return undefined;
  return document.slice(start + CONTROL_DOCS_MARKERS.start.length, end);
}

/** The document with the section between the markers replaced by `table`. */
export function withGeneratedSection(document: string, table: string): string {
  const start = document.indexOf(CONTROL_DOCS_MARKERS.start);
  const end = document.indexOf(CONTROL_DOCS_MARKERS.end);
  if (start < 0 || end < start) throw new Error('docs/mock-server.md has no control-table markers');
  return `${document.slice(0, start + CONTROL_DOCS_MARKERS.start.length)}\n\n${table}\n\n${document.slice(end)}`;
}

/** The help lines of the CLI flags a table's rows declare, by flag (each wrapped at the help's column). */
export function controlFlagHelp(table: ControlTable): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const [, row] of controlRows(table)) {
    const option = row.option;
    if (!option?.flag || !option.help) continue;
    const [first = '', ...rest] = option.help.split('\n');
    const head = `  ${option.flag.padEnd(24)} ${first}`;
    out.set(option.flag, [head, ...rest.map((line) => `${' '.repeat(27)}${line}`)].join('\n'));
  }
  return out;
}
