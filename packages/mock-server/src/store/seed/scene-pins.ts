/**
 * What a scene says, kept to while the generator makes an account: each function runs right after
 * the generator step that makes its records' working forms, so that what is derived from them later
 * (stacks, backends, repositories, runs, events) agrees with the names and values the scene gives.
 * Without a scene (`g.pins` undefined) each returns at once and draws nothing, so a seed's data is
 * the same bytes as before.
 *
 * @module
 */
import type { Event, IacStack, VcsType } from '@iacm/sdk/contract';
import type { AccountContext, RepoInfo, WsInfo } from './context.js';
import { iso } from './helpers.js';
import { moduleVcsPrefix, repoUrl } from './urls.js';
import { CLOUD_REGIONS, IAC_VERSIONS, RUNNERS } from './vocabulary.js';

/** A name not in `taken`: `name`, else `name-2`, `name-3`... */
function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name}-${n}`)) n++;
  return `${name}-${n}`;
}

/** The repository `fullName` of the account, made when there is none yet. */
function repository(g: AccountContext, fullName: string, vcs: VcsType, ws: WsInfo): RepoInfo {
  const existing = g.repos.get(fullName);
  if (existing) return existing;
  const [owner = g.org, name = fullName] = fullName.split('/');
  const rng = g.rng(`scene:repo:${fullName}`);
  const repo: RepoInfo = {
    fullName,
    name,
    vcs,
    url: repoUrl(vcs, owner, name),
    vcsPath: moduleVcsPrefix(vcs, owner, name),
    runner: RUNNERS[vcs].pick(rng),
    providers: new Set([ws.provider]),
    onlyCloudFormation: ws.iacType === 'cloudformation',
    maxUpdated: 0,
    resources: 0,
    modules: 0,
  };
  g.repos.set(fullName, repo);
  return repo;
}

/** Gives a repository another VCS, its URLs following. */
function moveRepository(repo: RepoInfo, vcs: VcsType): void {
  const [owner = '', name = repo.name] = repo.fullName.split('/');
  repo.vcs = vcs;
  repo.url = repoUrl(vcs, owner, name);
  repo.vcsPath = moduleVcsPrefix(vcs, owner, name);
}

/**
 * After `generateWorkspaces`: the scene's names, repositories, tools, labels and runs on the
 * workspaces' working forms. Generated names that a scene's name takes get a suffix. Repositories no
 * workspace uses any more are dropped, and each repository's clouds are counted again.
 */
export function pinWorkspaces(g: AccountContext): void {
  const pins = g.pins?.workspaces;
  if (!pins) return;
  const rng = g.rng('scene:workspaces');
  const named = new Set(pins.flatMap((pin) => (pin.name === undefined ? [] : [pin.name])));
  // A generated name the scene gives another workspace moves aside, to a name nobody has.
  const taken = new Set([...named, ...g.workspaces.map((ws) => ws.name)]);
  g.workspaces.forEach((ws, i) => {
    const pin = pins[i];
    if (!pin) return;
    if (pin.name !== undefined) ws.name = pin.name;
    else if (named.has(ws.name)) {
      ws.name = freeName(ws.name, taken);
      taken.add(ws.name);
    }
    if (pin.iacType !== undefined && pin.iacType !== ws.iacType) {
      ws.iacType = pin.iacType;
      ws.iacVersion = IAC_VERSIONS[pin.iacType].pick(rng);
      if (pin.iacType === 'cloudformation' && ws.provider !== 'aws') {
        ws.provider = 'aws';
        ws.region = CLOUD_REGIONS.aws.us;
      }
    }
    if (pin.iacTypeVersion !== undefined) ws.iacVersion = pin.iacTypeVersion;
    if (pin.repo !== undefined) ws.repo = repository(g, pin.repo, pin.vcsType ?? ws.repo.vcs, ws);
    if (pin.vcsType !== undefined && ws.repo.vcs !== pin.vcsType) {
      const shared = g.workspaces.some((other) => other !== ws && other.repo === ws.repo);
      // A VCS belongs to the repository: a shared one the scene did not name gets a repository of its own.
      if (shared && pin.repo === undefined) {
        ws.repo = repository(g, `${ws.repo.fullName}-${pin.vcsType}`, pin.vcsType, ws);
      }
      moveRepository(ws.repo, pin.vcsType);
      ws.runner = ws.repo.runner;
    }
    if (pin.runnerType !== undefined) ws.runner = pin.runnerType;
    if (pin.labels !== undefined) ws.labels = [...pin.labels];
    if (pin.isWorkflowManaged !== undefined) ws.isWorkflowManaged = pin.isWorkflowManaged;
    if (pin.runs !== undefined) ws.runPins = pin.runs;
  });
  // The repositories as the workspaces now use them.
  const used = new Set(g.workspaces.map((ws) => ws.repo));
  for (const [fullName, repo] of g.repos) if (!used.has(repo)) g.repos.delete(fullName);
  for (const repo of used) {
    repo.providers.clear();
    repo.onlyCloudFormation = true;
  }
  for (const ws of g.workspaces) {
    ws.repo.providers.add(ws.provider);
    if (ws.iacType !== 'cloudformation') ws.repo.onlyCloudFormation = false;
  }
}

/**
 * After `generateRules`: the scene's names, severities, switches, scopes and criteria on the rules
 * (their types were kept to while they were drawn). Generated names that a scene's name takes get a
 * suffix.
 */
export function pinRules(g: AccountContext): void {
  const pins = g.pins?.rules;
  if (!pins) return;
  const named = new Set(pins.flatMap((pin) => (pin.name === undefined ? [] : [pin.name])));
  const taken = new Set([...named, ...g.rules.map((rule) => rule.name)]);
  g.rules.forEach((rule, i) => {
    const pin = pins[i];
    if (!pin) return;
    if (pin.name !== undefined) rule.name = pin.name;
    else if (named.has(rule.name)) {
      rule.name = freeName(rule.name, taken);
      taken.add(rule.name);
    }
    if (pin.severity !== undefined) rule.severity = pin.severity;
    if (pin.isEnabled !== undefined) rule.isEnabled = pin.isEnabled;
    if (pin.scope !== undefined) rule.scope = pin.scope;
    if (pin.criteria !== undefined) rule.criteria = pin.criteria as typeof rule.criteria;
  });
}

/**
 * After `assignGuardrails`: a workspace whose scene names its guardrails has exactly those rules
 * (by name), whatever the rules' scopes say.
 */
export function pinGuardrails(g: AccountContext): void {
  const pins = g.pins?.workspaces;
  if (!pins) return;
  const byName = new Map(g.rules.map((rule) => [rule.name, rule.id]));
  g.workspaces.forEach((ws, i) => {
    const names = pins[i]?.guardrails;
    if (names) ws.guardrails = names.flatMap((name) => byName.get(name) ?? []);
  });
}

/**
 * After `stackRecords`: the findings a scene gives its stacks, counted on the stack record (as a
 * finding recorded through the control plane counts them), with the status they mean: drifts make it
 * `contains_drifts`, else ghosts `contains_ghosts`.
 */
export function pinStackRecords(g: AccountContext, stacks: IacStack[]): void {
  const pins = g.pins?.stacks;
  if (!pins) return;
  const byOwner = new Map(g.stacks.map((stack, i) => [stack.owner.name, i]));
  for (const pin of pins) {
    const index = byOwner.get(pin.workspace);
    const record = index === undefined ? undefined : stacks[index];
    if (!record || !pin.findings) continue;
    const findings = {
      drifts: pin.findings.drifts ?? 0,
      ghosts: pin.findings.ghosts ?? 0,
      unmanaged: pin.findings.unmanaged ?? 0,
      insights: pin.findings.insights ?? 0,
    };
    const status =
      findings.drifts > 0 ? 'contains_drifts' : findings.ghosts > 0 ? 'contains_ghosts' : record.status;
    stacks[index as number] = { ...record, status, findings } as IacStack;
  }
}

/** After `generateEvents`: the members a scene gives its events. */
export function pinEvents(g: AccountContext, events: Event[]): void {
  const pins = g.pins?.events;
  if (!pins) return;
  pins.forEach((pin, i) => {
    const event = events[i];
    if (!event) return;
    const patched: Event = { ...event };
    if (pin.event_type !== undefined) patched.event_type = pin.event_type;
    if (pin.asset_id !== undefined) patched.asset_id = pin.asset_id;
    if (pin.asset_type !== undefined) patched.asset_type = pin.asset_type;
    if (pin.provider_type !== undefined) patched.provider_type = pin.provider_type;
    if (pin.event_timestamp !== undefined) patched.event_timestamp = iso(Date.parse(pin.event_timestamp));
    if (pin.mutation_type !== undefined) patched.event = { ...event.event, mutation_type: pin.mutation_type };
    events[i] = patched;
  });
}
