/**
 * A browser dashboard over the IaC management service API, with no backend: `@iacm/mock-server`
 * answers in MSW's service worker, and `@iacm/sdk` reads it exactly as it would the real service.
 *
 * Query parameters: `?seed=7` picks another seeded data set.
 */
import { createMockServer } from '@iacm/mock-server';
import { IacmClient } from '@iacm/sdk';
import type { Event, FacetResult, WorkspaceSummary } from '@iacm/sdk/contract';
import { setupWorker } from 'msw/browser';

/** Where the mock answers: a path of this origin, so the page's own fetches reach the worker. */
const API_BASE = `${location.origin}/api-mock`;
const EVENT_PAGE_SIZE = 25;
const NEVER_RUN = 'never run';

type Row = Pick<WorkspaceSummary, 'id' | 'workspaceName' | 'repo' | 'runnerType' | 'lastRunStatus'>;

/** Finds an element the page must have (by `data-testid`). */
function byTestId<T extends HTMLElement = HTMLElement>(testId: string): T {
  const found = document.querySelector<T>(`[data-testid="${testId}"]`);
  if (!found) throw new Error(`the page has no [data-testid="${testId}"]`);
  return found;
}

/** Creates an element; text goes in with `textContent`, so data from the API is never parsed as HTML. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** A CSS class for a run status: finished well, failed, in progress, or other. */
function tone(status: string): string {
  if (/success|no_changes/.test(status)) return 'ok';
  if (/error|blocked/.test(status)) return 'bad';
  if (/planning|applying/.test(status)) return 'busy';
  return 'idle';
}

function statusOf(workspace: Row): string {
  return workspace.lastRunStatus?.description ?? NEVER_RUN;
}

function setStatus(text: string): void {
  byTestId('status').textContent = text;
}

function renderWorkspaces(workspaces: Row[]): void {
  byTestId('workspace-count').textContent = String(workspaces.length);
  byTestId('workspace-rows').replaceChildren(
    ...workspaces.map((workspace) => {
      const status = statusOf(workspace);
      return el(
        'tr',
        { 'data-testid': 'workspace-row', 'data-id': workspace.id },
        el('td', { 'data-testid': 'workspace-name' }, workspace.workspaceName),
        el('td', { 'data-testid': 'workspace-repo' }, workspace.repo),
        el('td', { 'data-testid': 'workspace-ci' }, workspace.runnerType),
        el(
          'td',
          { 'data-testid': 'workspace-status' },
          el('span', { class: `badge ${tone(status)}`, 'data-status': status }, status),
        ),
      );
    }),
  );
}

function renderStatusCounts(workspaces: Row[]): void {
  const counts = new Map<string, number>();
  for (const workspace of workspaces) {
    const status = statusOf(workspace);
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const sorted = [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  byTestId('status-counts').replaceChildren(
    ...sorted.map(([status, count]) =>
      el(
        'li',
        {
          class: tone(status),
          'data-testid': 'status-count',
          'data-status': status,
          'data-count': String(count),
        },
        el('strong', {}, String(count)),
        el('span', {}, status),
      ),
    ),
  );
}

/** A one-line summary of an event: its asset and the attributes that say the most. */
function describeEvent(event: Event): string {
  const attributes = new Map(event.event.attributes.map((a) => [a.key, a.value]));
  const parts = [`${event.event.mutation_type} ${event.asset_type}`];
  for (const key of ['workspaceName', 'ruleName', 'from', 'to', 'finding']) {
    const value = attributes.get(key);
    if (value) parts.push(`${key}=${value}`);
  }
  if (parts.length === 1) parts.push(event.asset_id);
  return parts.join(' · ');
}

function renderEvents(events: Event[]): void {
  byTestId('events-list').replaceChildren(
    ...events.map((event) =>
      el(
        'li',
        { 'data-testid': 'event-row', 'data-event-type': event.event_type, 'data-id': event.id },
        el('time', { datetime: event.event_timestamp }, event.event_timestamp.slice(0, 19).replace('T', ' ')),
        el('span', { class: 'type', 'data-testid': 'event-type' }, event.event_type),
        el('span', { class: 'detail' }, describeEvent(event)),
      ),
    ),
  );
}

function renderFacet(
  facet: FacetResult | undefined,
  selected: string | undefined,
  onPick: (v?: string) => void,
) {
  const values = facet?.values ?? [];
  const total = values.reduce((sum, v) => sum + v.count, 0);
  const button = (label: string, count: number, value: string | undefined) => {
    const node = el(
      'button',
      {
        type: 'button',
        'data-testid': 'facet-value',
        'data-value': value ?? '',
        'data-count': String(count),
        'aria-pressed': String(selected === value),
      },
      `${label} (${count})`,
    );
    node.addEventListener('click', () => onPick(value));
    return node;
  };
  byTestId('event-type-facet').replaceChildren(
    button('all', total, undefined),
    ...values.map((v) => button(v.value, v.count, v.value)),
  );
}

async function main(): Promise<void> {
  const seed = Number(new URLSearchParams(location.search).get('seed') ?? '') || undefined;
  const mock = createMockServer({ baseUrl: API_BASE, ...(seed ? { seed } : {}) });
  const worker = setupWorker(...mock.handlers);
  // The worker script is served at /mockServiceWorker.js by the Vite plugin in vite.config.ts.
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });

  const [primary] = mock.control.accounts();
  if (!primary) throw new Error('the mock has no account');
  byTestId('account').textContent = `${primary.name} · ${primary.id}`;

  setStatus('Checking the service…');
  // The client logs in with the key pair (POST /v2/login) on its first call and keeps the token.
  const client = new IacmClient({
    baseUrl: API_BASE,
    auth: { accessKey: primary.accessKey, secretKey: primary.secretKey },
  });
  await client.health();

  setStatus('Loading workspaces and events…');
  const eventsPanel = byTestId('events');
  let facet: FacetResult | undefined;
  const loadEvents = async (eventType?: string) => {
    eventsPanel.dataset.state = 'loading';
    const page = await client.eventCenter.query({
      size: EVENT_PAGE_SIZE,
      facets: [{ field: 'eventType', size: 10 }],
      ...(eventType ? { query: { filters: [{ key: 'eventType', values: [eventType] }] } } : {}),
    });
    renderEvents(page.events);
    // The facet shows the whole account's counts, so it comes from the unfiltered query only.
    if (!eventType) facet = page.facets.find((f) => f.field === 'eventType');
    renderFacet(facet, eventType, (value) => {
      loadEvents(value).catch(fail);
    });
    eventsPanel.dataset.filter = eventType ?? '';
    eventsPanel.dataset.state = 'ready';
  };

  const [workspaces] = await Promise.all([
    client.workspaces
      .search({
        pageSize: 100,
        sort: { workspaceName: { order: 1 } },
        projection: ['workspaceName', 'repo', 'runnerType', 'lastRunStatus'],
      })
      .toArray({ limit: 5000 }),
    loadEvents(),
  ]);
  renderWorkspaces(workspaces);
  renderStatusCounts(workspaces);

  setStatus(
    `Logged in as ${primary.name} with its demo key pair; ${workspaces.length} workspaces; ` +
      `${mock.control.journal().length} requests answered by the mock in this tab.`,
  );
  document.body.dataset.ready = 'true';
}

function fail(error: unknown): void {
  console.error(error);
  setStatus(`Failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  document.body.dataset.ready = 'error';
}

main().catch(fail);
