/**
 * The account record (with its key pair), its people and its cloud integrations.
 */
import { type MockAccount, SEED_EPOCH } from '../state.js';
import type { AccountContext, Integration } from './context.js';
import { DAY, digits, STEP_RECORDS, type Steps } from './helpers.js';
import {
  type CloudProvider,
  COLORS,
  FIRST_NAMES,
  INTEGRATION_ENVS,
  INTEGRATION_TYPES,
  LAST_NAMES,
} from './vocabulary.js';

// --- account, people, integrations ----------------------------------------------------------------

/** The account record, with its id and key pair (sets `g.accountId`). */
export function accountRecord(g: AccountContext): MockAccount {
  const rng = g.rng('account');
  g.accountId = g.objectId(rng, SEED_EPOCH - rng.int(400, 900) * DAY);
  return {
    id: g.accountId,
    name: g.name,
    accessKey: `iacm_ak_${rng.hex(16)}`,
    secretKey: `iacm_sk_${rng.hex(32)}`,
  };
}

/** The account's people (run owners), unique by name. */
export function generatePeople(g: AccountContext): void {
  const rng = g.rng('people');
  const count = Math.min(60, 8 + Math.floor(g.plan.workspaces / 8));
  const seen = new Set<string>();
  while (g.people.length < count && seen.size < FIRST_NAMES.length * LAST_NAMES.length) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const key = `${first} ${last}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const local = `${first}.${last}`
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z.]/g, '');
    const email = `${local}@${g.org}.example`;
    g.people.push({
      id: g.objectId(rng, SEED_EPOCH - rng.int(120, 700) * DAY),
      name: key,
      email,
      summary: Object.freeze({
        email,
        name: key,
        initials: `${first[0]}${last[0]}`,
        customColor: rng.pick(COLORS),
      }),
    });
  }
}

/**
 * The account's cloud integrations, cycling through the clouds and environments, in steps of
 * {@link STEP_RECORDS} integrations.
 */
export function* generateIntegrations(g: AccountContext): Steps {
  const rng = g.rng('integrations');
  const perKind = new Map<string, number>();
  for (let i = 0; i < g.plan.integrations; i++) {
    if (i > 0 && i % STEP_RECORDS === 0) yield;
    const type = INTEGRATION_TYPES[i % INTEGRATION_TYPES.length] as CloudProvider;
    const ofType = g.integrations.filter((integration) => integration.type === type).length;
    const env = INTEGRATION_ENVS[ofType % INTEGRATION_ENVS.length] as string;
    const key = `${type}-${env}`;
    const n = (perKind.get(key) ?? 0) + 1;
    perKind.set(key, n);
    const providerAccountId =
      type === 'aws' ? digits(rng, 12) : type === 'gcp' ? `${g.org}-${env}-${rng.hex(4)}` : rng.uuid();
    g.integrations.push({ id: `int-${key}-${n}`, type, env, providerAccountId });
  }
}

/** The account's integration of a cloud, preferring one of the given environment. */
export function integrationFor(g: AccountContext, type: CloudProvider, env: string): Integration | undefined {
  let fallback: Integration | undefined;
  for (const integration of g.integrations) {
    if (integration.type !== type) continue;
    if (integration.env === env) return integration;
    fallback ??= integration;
  }
  return fallback;
}
