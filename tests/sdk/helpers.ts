import { type ListenOptions, listen } from '@iacm/mock-server/node';
import { type ClientOptions, IacmClient, type Logger } from '@iacm/sdk';

/** A standalone mock on a free port, a movable clock, and a client logged in with the primary key pair. */
export async function startMock(options: ListenOptions = {}) {
  let now = Date.now();
  const mock = await listen({
    port: 0,
    sizes: { workspaces: 60, events: 400 },
    clock: () => now,
    ...options,
  });
  const [primary, other] = mock.control.accounts();
  if (!primary || !other) throw new Error('expected two accounts');
  const lines: string[] = [];
  const logger: Logger = {
    error: (m, d) => lines.push(`error ${m} ${JSON.stringify(d ?? {})}`),
    warn: (m, d) => lines.push(`warn ${m} ${JSON.stringify(d ?? {})}`),
    info: (m, d) => lines.push(`info ${m} ${JSON.stringify(d ?? {})}`),
    debug: (m, d) => lines.push(`debug ${m} ${JSON.stringify(d ?? {})}`),
  };
  const client = (extra: ClientOptions = {}) =>
    new IacmClient({
      baseUrl: mock.url,
      auth: { accessKey: primary.accessKey, secretKey: primary.secretKey },
      logger,
      logLevel: 'debug',
      ...extra,
    });
  const journal = () => mock.control.journal();
  const count = (method: string, path: string) =>
    journal().filter((e) => e.method === method && e.path === path).length;
  return {
    mock,
    primary,
    other,
    client,
    lines,
    journal,
    count,
    advance: (ms: number) => {
      now += ms;
    },
    close: () => mock.close(),
  };
}
