/**
 * Event center tail: prints the latest events of the account (newest first) with facet counts (how
 * many events per event type, provider and asset type), paging by continuation token; with
 * `--follow`, it then polls for new events and prints them as they come, like `tail -f`.
 *
 * Shows: `eventCenter.query` with filters and facets, the continuation token loop written out (a
 * `for await` over `client.eventCenter.query(...)` does the same for you), and polling with a time
 * window without printing an event twice.
 *
 * Run it against the mock (`pnpm start` prints the key pair) or the real service:
 *
 *   IACM_BASE_URL=http://127.0.0.1:4010 IACM_ACCESS_KEY=iacm_ak_… IACM_SECRET_KEY=iacm_sk_… \
 *     npx tsx examples/event-center-tail.ts [--follow] [--provider aws]
 *
 * With the mock, `--follow` shows the events of what you do meanwhile: relabel a workspace, create a
 * rule, or simulate a run (`curl -X POST $IACM_BASE_URL/__mock/workspaces/<id>/runs -H
 * 'content-type: application/json' -d '{}'`).
 */
import { pathToFileURL } from 'node:url';
import { APIUserAbortError, IacmClient } from '@iacm/sdk';
import type { Event, EventField, EventFilter, FacetResult } from '@iacm/sdk/contract';

/** Options of {@link main}. Absent connection options fall back to the SDK's environment variables. */
export interface EventCenterTailOptions {
  /** The service's base URL. Default: `IACM_BASE_URL`. */
  baseUrl?: string;
  /** Access key. Default: `IACM_ACCESS_KEY` (or a token in `IACM_TOKEN`). */
  accessKey?: string;
  /** Secret key. Default: `IACM_SECRET_KEY`. */
  secretKey?: string;
  /** Where the output goes, one line at a time. Default: `console.log`. */
  log?: (line: string) => void;
  /** Only events matching these filters (any of the values of a key; keys combined with AND). */
  filters?: EventFilter[];
  /** The fields to count values of. Default: event type, provider type, asset type. */
  facets?: EventField[];
  /** Events per page, 1 to 150. Default 50. */
  pageSize?: number;
  /** The most events to read from the backlog. Default 200. */
  limit?: number;
  /** Keep polling for new events until `signal` aborts. Default false. */
  follow?: boolean;
  /** Milliseconds between polls when following. Default 5000. */
  intervalMs?: number;
  /** Stops following (and any request in progress). */
  signal?: AbortSignal;
  /** Called with each new event while following, oldest first. */
  onEvent?: (event: Event) => void;
}

/** What the tail read. */
export interface EventCenterTail {
  /** The backlog, newest first. */
  events: Event[];
  /** The facet counts of every matching event (not only the ones read). */
  facets: FacetResult[];
  /** Pages read for the backlog. */
  pages: number;
  /** Events that arrived while following, oldest first. */
  followed: Event[];
}

export async function main(options: EventCenterTailOptions = {}): Promise<EventCenterTail> {
  const { baseUrl, accessKey, secretKey, log = console.log, signal } = options;
  const { pageSize = 50, limit = 200, intervalMs = 5000 } = options;
  const client = new IacmClient({
    ...(baseUrl ? { baseUrl } : {}),
    ...(accessKey && secretKey ? { auth: { accessKey, secretKey } } : {}),
  });
  const query = options.filters ? { filters: options.filters } : {};
  const facetFields = options.facets ?? ['eventType', 'providerType', 'assetType'];
  const requestOptions = signal ? { signal } : {};
  const result: EventCenterTail = { events: [], facets: [], pages: 0, followed: [] };

  // The backlog, page by page. A continuation token must go back with the same `query` (filters, time
  // window, search text) as the page it came from; facets are asked for on the first page only.
  let continuationToken: string | undefined;
  do {
    const page = await client.eventCenter.query(
      {
        query,
        size: Math.min(pageSize, limit - result.events.length),
        ...(result.pages === 0 ? { facets: facetFields.map((field) => ({ field, size: 5 })) } : {}),
        ...(continuationToken ? { continuationToken } : {}),
      },
      requestOptions,
    );
    if (result.pages === 0) result.facets = page.facets;
    result.pages += 1;
    result.events.push(...page.events);
    continuationToken = page.continuationToken ?? undefined; // null after the last page
  } while (continuationToken && result.events.length < limit);

  for (const facet of result.facets) {
    const values = facet.values.map((v) => `${v.value} ${v.count}`).join(', ');
    log(`${facet.field} (${facet.size} distinct): ${values}`);
  }
  for (const event of [...result.events].reverse()) log(line(event));
  log(`${result.events.length} events in ${result.pages} pages`);

  if (!options.follow) return result;

  // Poll for events at or after the newest one seen; the window's start is inclusive, so the events
  // of that instant come again and are skipped by id.
  const newest = result.events[0];
  let since = newest?.event_timestamp ?? new Date().toISOString();
  let seenAtSince = new Set(result.events.filter((e) => e.event_timestamp === since).map((e) => e.id));
  log('following (Ctrl+C to stop)');
  try {
    while (!signal?.aborted) {
      await sleep(intervalMs, signal);
      const fresh: Event[] = [];
      // `for await` follows the continuation tokens itself.
      for await (const event of client.eventCenter.query(
        { query: { ...query, startTime: since }, size: 150 },
        requestOptions,
      )) {
        if (!seenAtSince.has(event.id)) fresh.push(event);
      }
      fresh.reverse(); // oldest first
      for (const event of fresh) {
        result.followed.push(event);
        log(line(event));
        options.onEvent?.(event);
      }
      const last = fresh[fresh.length - 1];
      if (last) {
        if (last.event_timestamp !== since) seenAtSince = new Set();
        since = last.event_timestamp;
        for (const event of fresh) if (event.event_timestamp === since) seenAtSince.add(event.id);
      }
    }
  } catch (error) {
    if (!(error instanceof APIUserAbortError) && !signal?.aborted) throw error;
  }
  return result;
}

function line(event: Event): string {
  return `${event.event_timestamp}  ${event.event_type}/${event.event.mutation_type}  ${event.asset_type}  ${event.asset_id}`;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

// Run directly: `npx tsx examples/event-center-tail.ts [--follow] [--provider aws]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const provider = argv[argv.indexOf('--provider') + 1];
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  main({
    follow: argv.includes('--follow'),
    signal: controller.signal,
    ...(argv.includes('--provider') && provider
      ? { filters: [{ key: 'providerType', values: [provider] }] }
      : {}),
  }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
