/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and sums where the time went: self time per function,
 * inclusive time per function (each function counted once per stack), and self time per origin (our
 * packages, each dependency, Node's internals, GC, idle).
 */
import { readFileSync } from 'node:fs';
import { ROOT } from './paths.mjs';

function origin(url) {
  if (url === '') return 'native/V8';
  if (url.startsWith('node:')) return 'node internals';
  const modules = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const ours = /packages\/([^/]+)\/dist\//.exec(url);
  if (ours) return `@iacm/${ours[1]}`;
  if (url.includes('/bench/')) return 'benchmark harness';
  return url.replace(`file://${ROOT}/`, '');
}

function label(frame) {
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return name;
  const file = frame.url
    .replace(/^file:\/\//, '')
    .replace(`${ROOT}/`, '')
    .replace(/^.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, '');
  return `${name} ${file}:${frame.lineNumber + 1}`;
}

/**
 * @param {string} file a .cpuprofile
 * @param {number} [top] how many functions to keep
 */
export function summarize(file, top = 12) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let total = 0;
  let idle = 0;
  const self = new Map();
  const inclusive = new Map();
  const origins = new Map();
  for (const [id, us] of selfUs) {
    const node = nodes.get(id);
    const frame = node.callFrame;
    total += us;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const key = label(frame);
    self.set(key, (self.get(key) ?? 0) + us);
    const special = frame.functionName.startsWith('(') && frame.url === '' ? frame.functionName : undefined;
    const where = special ?? origin(frame.url);
    origins.set(where, (origins.get(where) ?? 0) + us);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = label(nodes.get(at).callFrame);
      if (name === '(root)' || seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
  }
  const busy = total - idle;
  const rank = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({
        name,
        ms: Math.round(us / 1000),
        percent: Math.round((us / busy) * 1000) / 10,
      }));
  return {
    file: file.replace(`${ROOT}/`, ''),
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    self: rank(self, top),
    inclusive: rank(inclusive, top),
    origins: rank(origins, top),
  };
}

/**
 * A summary as text lines for the console.
 * @param {ReturnType<typeof summarize>} summary
 */
export function formatSummary(summary) {
  const lines = [
    `  ${summary.file}: busy ${summary.busyMs} ms, idle ${summary.idleMs} ms (percentages of busy time)`,
  ];
  const list = (title, items) => {
    lines.push(`    ${title}:`);
    for (const item of items) lines.push(`      ${String(item.percent).padStart(5)}%  ${item.name}`);
  };
  list('by origin (self time)', summary.origins.slice(0, 8));
  list('functions by self time', summary.self.slice(0, 10));
  list('functions by inclusive time', summary.inclusive.slice(0, 10));
  return lines.join('\n');
}
