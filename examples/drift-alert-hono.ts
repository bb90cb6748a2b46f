/**
 * Drift alerts on Hono: a webhook endpoint for the service's notifications that turns every
 * drifted resource of a `Drift` notification into an alert (kept in memory here, and listed at
 * `GET /alerts`; send them to chat or a pager in your code).
 *
 * Shows: `@iacm/webhook-receiver`'s fetch-style handler, `(Request) => Promise<Response>`, on Hono
 * (served on Node by @hono/node-server; the same handler runs on Bun, Deno or Workers). The route
 * hands it the untouched `c.req.raw`: the receiver reads the raw body itself, checks the credentials
 * and answers exact statuses (401 for wrong credentials, 415, 422...). The same program for Express
 * and Fastify: drift-alert-express.ts, drift-alert-fastify.ts.
 *
 * Run it, then point a webhook integration at it with the same Authorization value:
 *
 *   IACM_WEBHOOK_TOKEN=change-me npx tsx examples/drift-alert-hono.ts   # listens on PORT (3000)
 *
 * It prints the `curl` commands that create the integration in the mock (`pnpm start`) and send a
 * drift notification through it.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { type CredentialsOption, createFetchHandler, createWebhookReceiver } from '@iacm/webhook-receiver';
import { Hono } from 'hono';

/** One drifted resource, as the alert shows it. */
export interface DriftAlert {
  receivedAt: string;
  accountName: string;
  /** The cloud integration the resource belongs to. */
  integrationName: string;
  region: string;
  assetType: string;
  /** The resource's name and ARN (or asset id). */
  resource: string;
  assetId: string;
  /** What differs: the attribute, its value in code and its value in the cloud. */
  drifts: Array<{ keyName: string; iacValue: string; providerValue: string }>;
}

/** Options of {@link startDriftAlertServer}. */
export interface DriftAlertOptions {
  /** Port; 0 picks a free one. Default: `PORT`, else 3000. */
  port?: number;
  /** Address to bind. Default 127.0.0.1. */
  host?: string;
  /** The credentials configured on the integration. Default: `Authorization: Bearer $IACM_WEBHOOK_TOKEN`. */
  credentials?: CredentialsOption;
  /** Where progress goes, one line at a time. Default: `console.log`. */
  log?: (line: string) => void;
  /** Called with each alert. */
  onAlert?: (alert: DriftAlert) => void;
}

/** The running server: the webhook URL, the alerts so far, and how to stop it. */
export interface DriftAlertServer {
  url: string;
  alerts: DriftAlert[];
  close(): Promise<void>;
}

function defaultCredentials(): CredentialsOption {
  const token = process.env.IACM_WEBHOOK_TOKEN;
  if (!token)
    throw new Error('set IACM_WEBHOOK_TOKEN to the token the integration sends (or pass credentials)');
  return { type: 'header', value: `Bearer ${token}` };
}

export async function startDriftAlertServer(options: DriftAlertOptions = {}): Promise<DriftAlertServer> {
  const { host = '127.0.0.1', log = console.log } = options;
  const port = options.port ?? Number(process.env.PORT ?? 3000);
  const alerts: DriftAlert[] = [];

  const receiver = createWebhookReceiver({ credentials: options.credentials ?? defaultCredentials() });
  receiver.on('Drift', (payload) => {
    for (const sample of payload.samples) {
      const alert: DriftAlert = {
        receivedAt: new Date().toISOString(),
        accountName: payload.accountName,
        integrationName: payload.integrationName,
        region: payload.region,
        assetType: payload.assetType,
        resource: sample.name,
        assetId: sample.ARN,
        drifts: sample.drifts.map(({ keyName, iacValue, providerValue }) => ({
          keyName,
          iacValue,
          providerValue,
        })),
      };
      alerts.push(alert);
      log(`drift on ${alert.resource} (${alert.assetType}, ${alert.region}): ${describe(alert)}`);
      options.onAlert?.(alert);
    }
  });
  receiver.on('test', () => log('integration test delivery received'));
  // Refused deliveries (wrong credentials, not JSON...): the error never holds a credential.
  receiver.onError((error) => log(`delivery refused: ${error.status} ${error.code}: ${error.message}`));

  const app = new Hono();
  const handler = createFetchHandler(receiver);
  app.all('/webhooks', (c) => handler(c.req.raw)); // the untouched Request: no c.req.json() before
  app.get('/alerts', (c) => c.json(alerts));

  const server = serve({ fetch: app.fetch, port, hostname: host }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const url = `http://${host}:${(server.address() as AddressInfo).port}/webhooks`;
  return {
    url,
    alerts,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function describe(alert: DriftAlert): string {
  return alert.drifts.map((d) => `${d.keyName} is ${d.providerValue} (code says ${d.iacValue})`).join('; ');
}

export async function main(options: DriftAlertOptions = {}): Promise<DriftAlertServer> {
  const log = options.log ?? console.log;
  const credentials = options.credentials ?? defaultCredentials();
  const server = await startDriftAlertServer({ ...options, credentials });
  log(`drift alerts: POST ${server.url} (GET ${server.url.replace(/\/webhooks$/, '/alerts')} lists them)`);
  if (typeof credentials === 'object' && 'type' in credentials && credentials.type === 'header') {
    const mock = process.env.IACM_BASE_URL ?? 'http://127.0.0.1:4010';
    const integration = {
      nickname: 'drift alerts',
      url: server.url,
      credentials: { authorization: credentials.value },
    };
    log('with the mock (pnpm start), create the integration, then send a drift notification through it:');
    log(
      `  curl -X POST ${mock}/__mock/integrations/webhook -H 'content-type: application/json' -d '${JSON.stringify(integration)}'`,
    );
    log(
      `  curl -X POST ${mock}/__mock/notifications -H 'content-type: application/json' -d '{"notificationType":"Drift"}'`,
    );
  }
  return server;
}

// Run directly: `IACM_WEBHOOK_TOKEN=change-me npx tsx examples/drift-alert-hono.ts`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (server) => process.once('SIGINT', () => void server.close()),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
