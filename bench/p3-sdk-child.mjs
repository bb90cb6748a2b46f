/**
 * P3's measuring process: `client.workspaces.search()` of the built SDK (validation strict, and off)
 * against `fetch` + `JSON.parse` of the same answer, and against ky alone making the same call (an
 * anchor: the SDK was built on ky until issue 25, which measured it), all against the same
 * raw server.
 */
import { DIST, url } from './lib/paths.mjs';
import { childMain } from './lib/processes.mjs';
import { alternateCalls } from './lib/timing.mjs';

await childMain(async ({ base, token, requests, warmup, rounds }) => {
  const { IacmClient } = await import(url(DIST.sdk));
  // ky alone: an anchor (the SDK was built on ky until issue 25), a devDependency of the repository.
  const { default: ky } = await import('ky');
  const kyClient = ky.create({ prefixUrl: base, retry: 0, headers: { authorization: `Bearer ${token}` } });
  const strict = new IacmClient({ baseUrl: base, auth: { token }, validation: 'strict' });
  const off = new IacmClient({ baseUrl: base, auth: { token }, validation: 'off' });
  const expect = (items) => {
    if (!Array.isArray(items) || items.length !== 25) throw new Error('expected 25 workspaces');
  };
  const raw = async () => {
    const res = await fetch(`${base}/v2/workspaces/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    });
    if (res.status !== 200) throw new Error(`answered ${res.status}`);
    expect(JSON.parse(await res.text()));
  };
  return alternateCalls(
    rounds,
    { requests, warmup },
    {
      fetch: { call: raw },
      ky: { call: async () => expect(await kyClient.post('v2/workspaces/search', { json: {} }).json()) },
      strict: { call: async () => expect(await strict.workspaces.search()) },
      off: { call: async () => expect(await off.workspaces.search()) },
    },
  );
});
