/**
 * Event center events: drift, ClickOps, guardrail violations and governance findings.
 */
import type {
  Event,
  EventAttribute,
  EventField,
  EventType,
  GuardrailRule,
  MutationType,
} from '@iacm/sdk/contract';
import { STACK_STATUSES, severityName } from '@iacm/sdk/contract';
import { drain } from '../../query/pause.js';
import type { EventSink } from '../event-columns.js';
import { IdFactory } from '../ids.js';
import type { Random } from '../random.js';
import { SEED_EPOCH } from '../state.js';
import type { AccountContext, Integration, StackInfo, ViolatingRun } from './context.js';
import {
  ASSET_KINDS,
  type AssetContext,
  CLICKOPS_EVENTS,
  CONSOLES,
  EVENT_TYPE_TABLE,
  EVENT_TYPES_ORDER,
  GOVERNANCE_POLICIES,
  type GovernancePolicy,
  governancePolicies,
  MUTATION_FIELDS,
  MUTATION_SOURCES,
  MUTATION_TABLE,
  POLICY_SEVERITY_LIST,
  POLICY_SEVERITY_TABLE,
} from './event-vocabulary.js';
import { EVENT_WINDOW, iso, STEP_RECORDS, StepCounter, type Steps, Weighted } from './helpers.js';
import { CLOUD_REGIONS } from './vocabulary.js';

// --- events -------------------------------------------------------------------------------------------

/**
 * How many numbers a loop over plain numbers (an event's time drawn, a sort's pass) handles between
 * two points where it may stop: 8,192 (each takes a few nanoseconds).
 */
const STEP_NUMBERS = 8192;

/**
 * The account's event center events. With `sink`, each event's parts go there instead and the list
 * is empty; the random draws are the same either way. In steps of {@link STEP_RECORDS} events (and
 * assets of the pools they happen to).
 */
export function* generateEvents(g: AccountContext, sink?: EventSink): Steps<Event[]> {
  const rng = g.rng('events');
  const count = g.plan.events;
  const integrations = g.integrations;
  if (count === 0 || integrations.length === 0) return [];
  const ids = g.shared.ids;
  // Each integration has a pool of assets that events happen to (some much more often than others).
  const poolSize = Math.min(4000, Math.max(12, Math.ceil(count / integrations.length / 15)));
  // With a sink, each distinct value's code is asked for once, here or on first use.
  const sources: Source[] = [];
  const codes = new Int32Array(7);
  codes[0] = sink?.code('account', g.accountId) ?? 0;
  const typeCodes = new Map<string, number>();
  const mutationCodes = new Map<string, number>();
  const codeOf = (cache: Map<string, number>, field: EventField, value: string) => {
    let code = cache.get(value);
    if (code === undefined) {
      code = sink?.code(field, value) ?? 0;
      cache.set(value, code);
    }
    return code;
  };
  const words = [...new Set(g.workspaces.map((ws) => ws.area))];
  if (words.length === 0) words.push('shared');
  const work = new StepCounter();
  for (const integration of integrations) {
    const kinds = ASSET_KINDS[integration.type];
    const regions = Object.values(CLOUD_REGIONS[integration.type]);
    const pool: Asset[] = [];
    if (work.add()) yield;
    for (let i = 0; i < poolSize; i++) {
      if (work.add()) yield;
      const [type, makeId] = rng.pick(kinds);
      const context: AssetContext = {
        org: g.org,
        account: integration.providerAccountId,
        region: rng.pick(regions),
        word: `${rng.pick(words)}-${integration.env}`,
        hex: rng.hex(20),
      };
      const id = makeId(context);
      pool.push({
        id,
        type,
        typeIndex: ASSET_TYPE_INDEX.get(type) as number,
        code: sink?.code('assetId', id) ?? 0,
        typeCode: sink?.code('assetType', type) ?? 0,
      });
    }
    sources.push({
      integration,
      pool,
      integrationCode: sink?.code('integrationId', integration.id) ?? 0,
      providerCode: sink?.code('providerType', integration.type) ?? 0,
    });
  }
  const sourceTable = new Weighted(
    sources.map((source, i): [Source, number] => [source, 1 / (1 + 0.35 * i)]),
  );
  // Timestamps first, sorted, so events come out newest first.
  // Each is drawn as its distance back from the epoch (whole milliseconds under EVENT_WINDOW, 30
  // days, less than 2^32): sorted up, the distances give the times newest first.
  const ages = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % STEP_NUMBERS === 0) yield;
    ages[i] = Math.floor(rng.next() * EVENT_WINDOW);
  }
  yield* sortUint32Steps(ages);
  const violating = g.violatingRuns;
  yield* sortByTime(violating);
  const stacks = g.stacks;
  // Attribute lists repeat a lot (same actor, field and source, say): each distinct list is made
  // once, frozen and shared, found by a number made of the indices of its values.
  const attribute = attributeCache();
  // Each list made gets an index here (with a sink, its code too: the sink is asked once per list).
  const made: AttributeLists = { lists: [], codes: [], sink };
  const lists = new Map<number, number>();
  const people = g.people.length;
  const actors = [...g.people.map((person) => person.email), `terraform@${g.org}.example`];
  const fields = [...MUTATION_FIELDS, '*'];
  // Every event type appears at least once (when there are enough events), at random positions.
  const forced = new Map<number, EventType>();
  if (count >= EVENT_TYPES_ORDER.length) {
    while (forced.size < EVENT_TYPES_ORDER.length) {
      const position = rng.int(0, count - 1);
      if (!forced.has(position)) forced.set(position, EVENT_TYPES_ORDER[forced.size] as EventType);
    }
  }
  const events: Event[] = sink ? [] : new Array(count);
  const idWords = new Uint32Array(6);
  const progress = g.shared.progress;
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % STEP_RECORDS === 0) yield;
    progress?.add();
    const time = SEED_EPOCH - 1 - (ages[i] as number);
    let type = forced.get(i) ?? EVENT_TYPE_TABLE.pick(rng);
    if (type === 'guardrails_violation' && g.rules.length === 0) type = 'governance_violation';
    if (type === 'iac_status_change' && stacks.length === 0) type = 'mutation';
    const source = sourceTable.pick(rng);
    const { integration, pool } = source;
    const asset = pool[Math.floor(rng.next() ** 2 * pool.length)] as Asset;
    const mutationType: MutationType =
      type === 'iac_status_change' || type === 'governance_violation' || type === 'clickops'
        ? 'update'
        : MUTATION_TABLE.pick(rng);
    let list: number | undefined;
    switch (type) {
      case 'mutation': {
        const actor = rng.chance(0.7) ? rng.int(0, people - 1) : people;
        const field =
          mutationType === 'update' ? rng.int(0, MUTATION_FIELDS.length - 1) : MUTATION_FIELDS.length;
        const source = rng.int(0, MUTATION_SOURCES.length - 1);
        const key = 1 + ((actor * fields.length + field) * MUTATION_SOURCES.length + source) * LIST_KINDS;
        list = lists.get(key);
        if (list === undefined) {
          list = keepList(made, [
            attribute('actor', actors[actor] as string),
            attribute('field', fields[field] as string),
            attribute('source', MUTATION_SOURCES[source] as string),
          ]);
          lists.set(key, list);
        }
        break;
      }
      case 'guardrails_violation':
        list = violationAttributes(g, rng, attribute, violating, time, made);
        break;
      case 'iac_status_change': {
        const stackIndex = rng.int(0, stacks.length - 1);
        const stack = stacks[stackIndex] as StackInfo;
        const to = rng.chance(0.6) ? STACK_STATUSES.indexOf(stack.status) : rng.int(0, 7);
        let from = rng.int(0, 7);
        if (from === to) from = (to + 1 + rng.int(0, 6)) % 8;
        const key = 2 + ((stackIndex * 8 + from) * 8 + to) * LIST_KINDS;
        list = lists.get(key);
        if (list === undefined) {
          list = keepList(made, [
            attribute('stackId', stack.id),
            attribute('stackName', stack.owner.name),
            attribute('from', STACK_STATUSES[from] as string),
            attribute('to', STACK_STATUSES[to] as string),
          ]);
          lists.set(key, list);
        }
        break;
      }
      case 'governance_violation': {
        const candidates = governancePolicies(asset.type);
        const policy = candidates[rng.int(0, candidates.length - 1)] as number;
        const severity = POLICY_SEVERITY_TABLE.pick(rng);
        const key = 3 + (policy * POLICY_SEVERITY_LIST.length + severity) * LIST_KINDS;
        list = lists.get(key);
        if (list === undefined) {
          const [policyId, policyName, framework] = GOVERNANCE_POLICIES[policy] as GovernancePolicy;
          list = keepList(made, [
            attribute('policyId', policyId),
            attribute('policyName', policyName),
            attribute('severity', POLICY_SEVERITY_LIST[severity] as string),
            attribute('framework', framework),
          ]);
          lists.set(key, list);
        }
        break;
      }
      default: {
        const actor = rng.int(0, people - 1);
        const names = CLICKOPS_EVENTS[asset.type] ?? CLICKOPS_FALLBACK;
        const name = rng.int(0, names.length - 1);
        const key = 4 + ((asset.typeIndex * 4 + name) * (people + 1) + actor) * LIST_KINDS;
        list = lists.get(key);
        if (list === undefined) {
          list = keepList(made, [
            attribute('actor', actors[actor] as string),
            attribute('eventName', names[name] as string),
            attribute('userAgent', CONSOLES[integration.type]),
          ]);
          lists.set(key, list);
        }
      }
    }
    ids.uuidWords(rng, idWords, 0);
    ids.mutationWords(rng, idWords, 4);
    if (sink) {
      codes[1] = source.integrationCode;
      codes[2] = codeOf(typeCodes, 'eventType', type);
      codes[3] = source.providerCode;
      codes[4] = asset.code;
      codes[5] = asset.typeCode;
      codes[6] = codeOf(mutationCodes, 'mutationType', mutationType);
      sink.add(idWords, codes, time, made.codes[list as number] as number);
      continue;
    }
    events[i] = {
      id: IdFactory.uuidText(idWords, 0),
      account_id: g.accountId,
      integration_id: integration.id,
      event_timestamp: iso(time),
      event_type: type,
      provider_type: integration.type,
      asset_id: asset.id,
      asset_type: asset.type,
      event: {
        mutation_id: IdFactory.mutationText(idWords, 4),
        mutation_type: mutationType,
        attributes: made.lists[list as number] as EventAttribute[],
      },
    };
  }
  return events;
}

/** How many violating runs {@link sortByTime} sorts with the built-in sort at a time: 2,048. */
const SORT_RUN = 2048;

/**
 * Sorts violating runs in place by time, ascending, keeping the order of runs of the same time (as
 * the built-in sort, which is stable, does: the same order, so the same events): runs of
 * {@link SORT_RUN} sorted by the built-in sort, then merged in rounds, in steps of
 * {@link STEP_NUMBERS} runs.
 */
function* sortByTime(runs: ViolatingRun[]): Steps {
  const byTime = (a: ViolatingRun, b: ViolatingRun) => a.time - b.time;
  const n = runs.length;
  if (n <= SORT_RUN) {
    runs.sort(byTime);
    return;
  }
  let from = runs.slice();
  for (let start = 0; start < n; start += SORT_RUN) {
    const sorted = from.slice(start, start + SORT_RUN).sort(byTime);
    for (let i = 0; i < sorted.length; i++) from[start + i] = sorted[i] as ViolatingRun;
    yield;
  }
  let to: ViolatingRun[] = new Array(n);
  let moved = 0;
  for (let width = SORT_RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let left = lo;
      let right = mid;
      for (let out = lo; out < hi; out++) {
        // The left run first on a tie: stable.
        const takeLeft =
          right >= hi ||
          (left < mid && (from[left] as ViolatingRun).time <= (from[right] as ViolatingRun).time);
        to[out] = (takeLeft ? from[left++] : from[right++]) as ViolatingRun;
        if (++moved % STEP_NUMBERS === 0) yield;
      }
    }
    const merged = to;
    to = from;
    from = merged;
  }
  for (let i = 0; i < n; i++) runs[i] = from[i] as ViolatingRun;
}

/**
 * Sorts 32-bit unsigned integers in place, ascending: a radix sort in two passes of 16 bits (a
 * million event times in about a fifth of the time of the typed array's own sort).
 */
export function sortUint32(values: Uint32Array): void {
  drain(sortUint32Steps(values));
}

/** {@link sortUint32} in steps of {@link STEP_NUMBERS} values. */
function* sortUint32Steps(values: Uint32Array): Steps {
  const n = values.length;
  let from: Uint32Array = values;
  let to: Uint32Array = new Uint32Array(n);
  const starts = new Int32Array(65536);
  for (let shift = 0; shift < 32; shift += 16) {
    starts.fill(0);
    for (let i = 0; i < n; i++) {
      if (i > 0 && i % STEP_NUMBERS === 0) yield;
      const digit = ((from[i] as number) >>> shift) & 0xffff;
      starts[digit] = (starts[digit] as number) + 1;
    }
    let sum = 0;
    for (let digit = 0; digit < 65536; digit++) {
      const count = starts[digit] as number;
      starts[digit] = sum;
      sum += count;
    }
    for (let i = 0; i < n; i++) {
      if (i > 0 && i % STEP_NUMBERS === 0) yield;
      const value = from[i] as number;
      const digit = (value >>> shift) & 0xffff;
      to[starts[digit] as number] = value;
      starts[digit] = (starts[digit] as number) + 1;
    }
    const sorted = to;
    to = from;
    from = sorted;
  }
  // After an even number of passes the sorted values are back in `values`.
}

/**
 * Attributes of a guardrail violation event: a rule that the latest violating run at or before
 * `time` (or else the earliest one) failed, that run's workspace and its `runId`. Answers the
 * list's index in `made`.
 */
function violationAttributes(
  g: AccountContext,
  rng: Random,
  attribute: AttributeCache,
  violating: ViolatingRun[],
  time: number,
  made: AttributeLists,
): number {
  let lo = 0;
  let hi = violating.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if ((violating[mid] as ViolatingRun).time <= time) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const hit = violating[Math.max(found, 0)];
  const ruleId = hit ? rng.pick(hit.ruleIds) : (rng.pick(g.rules) as GuardrailRule).id;
  if (hit && !hit.lists) hit.lists = new Map();
  const cache = hit?.lists ?? g.ruleLists;
  let index = cache.get(ruleId);
  if (index === undefined) {
    const rule = g.rulesById.get(ruleId) as GuardrailRule;
    const list = [
      attribute('ruleId', rule.id),
      attribute('ruleName', rule.name),
      attribute('severity', severityName(rule.severity) ?? 'warning'),
    ];
    if (hit) list.push(attribute('workspaceId', hit.run.workspaceId), attribute('runId', hit.run.runId));
    index = keepList(made, list);
    cache.set(ruleId, index);
  }
  return index;
}

/** An integration of the account, its assets and (with a sink) its codes. */
interface Source {
  integration: Integration;
  pool: Asset[];
  integrationCode: number;
  providerCode: number;
}

interface Asset {
  id: string;
  type: string;
  /** The asset type's index in {@link ASSET_TYPE_INDEX}. */
  typeIndex: number;
  /** With a sink: the codes of the id and the type. */
  code: number;
  typeCode: number;
}

/** How many kinds of attribute list share the list cache (the key's remainder tells them apart). */
const LIST_KINDS = 5;
const CLICKOPS_FALLBACK = ['ConsoleUpdate'];
const ASSET_TYPE_INDEX = new Map(
  Object.values(ASSET_KINDS)
    .flat()
    .map(([type], i) => [type, i]),
);

/**
 * The attribute lists one account's events were given, by index (each made once, frozen and shared
 * by its events), and with a sink their codes there, asked for once per list.
 */
interface AttributeLists {
  readonly lists: EventAttribute[][];
  readonly codes: number[];
  readonly sink: EventSink | undefined;
}

/** Freezes a new attribute list and keeps it in `made`; answers its index. */
function keepList(made: AttributeLists, attributes: EventAttribute[]): number {
  const list = Object.freeze(attributes) as EventAttribute[];
  made.lists.push(list);
  made.codes.push(made.sink?.list(list) ?? 0);
  return made.lists.length - 1;
}

type AttributeCache = (key: string, value: string) => EventAttribute;

/**
 * Event attributes are few distinct `{ key, value }` pairs repeated over many events: each pair is
 * made once, frozen, and shared.
 */
function attributeCache(): AttributeCache {
  const byKey = new Map<string, Map<string, EventAttribute>>();
  return (key, value) => {
    let byValue = byKey.get(key);
    if (!byValue) {
      byValue = new Map();
      byKey.set(key, byValue);
    }
    let attribute = byValue.get(value);
    if (!attribute) {
      attribute = Object.freeze({ key, value });
      byValue.set(value, attribute);
    }
    return attribute;
  };
}
