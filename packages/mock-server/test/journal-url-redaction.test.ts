/**
 * URL secrets in journalled bodies: every string of a journalled body (a control route's or an API
 * request's, at any depth, in arrays too) that is an absolute http(s) URL is written down as the
 * integration route shows a webhook URL (`redactUrl`): no `user:password@`, no value of a secret
 * query or fragment parameter (`?sig=`, `?code=`, `#access_token=`...). The host and the path stay.
 * One redaction, when the entry is written: `GET /__mock/journal`, `control.journal()`,
 * `control.calls(...)` and the journal waits all read it.
 */
import { REDACTED } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { MockCore } from '../src/app/mock.js';
import { redactUrls } from '../src/domain/webhook-url.js';
import type { MockResponse } from '../src/http/message.js';
import { Journal, tooLargeToKeepOver } from '../src/pipeline/journal.js';
import { setup } from './helpers.js';

/** The secrets a URL of these tests carries; none may be written down. */
const SECRETS = ['sig-value-q7', 'frag-token-q7', 'hook-user-q7', 'hook-pass-q7'] as const;

/** A webhook URL with a user name and password, a secret query value and a secret fragment value. */
const SECRET_URL = `https://${SECRETS[2]}:${SECRETS[3]}@hooks.example.test/in/drift?sig=${SECRETS[0]}&team=platform#access_token=${SECRETS[1]}`;

/** The same URL without a user name and password (what a scene accepts). */
const ACCEPTED_URL = `https://hooks.example.test/in/drift?sig=${SECRETS[0]}&team=platform#access_token=${SECRETS[1]}`;

/** How `SECRET_URL` reads in the journal. */
const SHOWN_URL = `https://${REDACTED}@hooks.example.test/in/drift?sig=${REDACTED}&team=platform#access_token=${REDACTED}`;

/** A scene with one webhook integration at `url`. */
const sceneWith = (url: string) => ({
  accounts: [{ name: 'Acme', workspaces: [{ name: 'one' }], webhooks: [{ nickname: 'ops', url }] }],
});

/** `value` nested `depth` levels down, objects and arrays in turn. */
function nested(value: unknown, depth: number): unknown {
  let out = value;
  for (let i = 0; i < depth; i++) out = i % 2 === 0 ? { level: i, inner: out } : [out];
  return out;
}

/** Checks an entry's text holds no secret of `SECRET_URL`, and still names its host and path. */
function expectRedacted(entry: unknown): void {
  const text = JSON.stringify(entry);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  expect(text).toContain('hooks.example.test/in/drift');
  expect(text).toContain('team=platform');
}

/** A mock, and a caller of its control plane over HTTP (as the node:http adapter hands a request over). */
function mock() {
  const core = new MockCore({ sizes: { accounts: 1, workspaces: 2, events: 0 } });
  const post = (path: string, body: unknown): Promise<MockResponse> =>
    core.handle({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body });
  const last = () => {
    const entry = core.control.journal(1)[0];
    if (!entry) throw new Error('no journal entry');
    return entry;
  };
  return { core, post, last };
}

describe('URL secrets in the journal', () => {
  describe.each([
    ['POST /__mock/scene', '/__mock/scene', (url: string) => sceneWith(url)],
    ['POST /__mock/sessions { scene }', '/__mock/sessions', (url: string) => ({ scene: sceneWith(url) })],
    ['POST /__mock/scenario', '/__mock/scenario', (url: string) => ({ scene: sceneWith(url), timeline: [] })],
  ])('%s', (_name, path, bodyOf) => {
    it('over HTTP: a refused URL (with a user name and password) is written down redacted', async () => {
      const m = mock();
      const res = await m.post(path, bodyOf(SECRET_URL));
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).not.toContain(SECRETS[3]);
      const entry = m.last();
      expect(entry.path).toBe(path);
      expectRedacted(entry);
      expect(JSON.stringify(entry.body)).toContain(JSON.stringify(SHOWN_URL));
    });

    it('over HTTP: an accepted URL is written down redacted, in every reading of the journal', async () => {
      const m = mock();
      const res = await m.post(path, bodyOf(ACCEPTED_URL));
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      const entry = m.last();
      expectRedacted(entry);
      expect(JSON.stringify(entry.body)).toContain(
        `https://hooks.example.test/in/drift?sig=${REDACTED}&team=platform#access_token=${REDACTED}`,
      );
      expectRedacted((await m.core.handle({ method: 'GET', path: '/__mock/journal' })).body);
      expectRedacted(m.core.control.journal());
    });
  });

  it('in process: control.scene, control.createSession and control.play leave nothing of the URL in the journal', async () => {
    const m = mock();
    await m.core.control.scene(sceneWith(ACCEPTED_URL));
    await m.core.control.createSession({ scene: sceneWith(ACCEPTED_URL) });
    await m.core.control.play({ scene: sceneWith(ACCEPTED_URL), timeline: [] });
    await expect(m.core.control.scene(sceneWith(SECRET_URL))).rejects.toThrow(/user name or password/);
    // In-process control calls are not requests: the journal holds none of them (and so no secret).
    const text = JSON.stringify(m.core.control.journal());
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    // The same calls over HTTP are written down, redacted.
    await m.post('/__mock/scene', sceneWith(ACCEPTED_URL));
    await m.post('/__mock/sessions', { scene: sceneWith(ACCEPTED_URL) });
    await m.post('/__mock/scenario', { scene: sceneWith(ACCEPTED_URL), timeline: [] });
    expect(m.core.control.journal().map((e) => e.path)).toEqual([
      '/__mock/scene',
      '/__mock/sessions',
      '/__mock/scenario',
    ]);
    expectRedacted(m.core.control.journal());
  });

  it('a URL deep in any control body is redacted, in arrays too', async () => {
    const m = mock();
    const body = nested({ target: SECRET_URL, list: ['plain', SECRET_URL], n: 1 }, 10);
    await m.post('/__mock/scene', body);
    const entry = m.last();
    expectRedacted(entry);
    const text = JSON.stringify(entry.body);
    expect(text.split(JSON.stringify(SHOWN_URL))).toHaveLength(3);
    expect(entry.body).toEqual(nested({ target: SHOWN_URL, list: ['plain', SHOWN_URL], n: 1 }, 10));
  });

  it('an API request body: the journal, control.calls and the journal waits read its URLs redacted', async () => {
    const ctx = await setup();
    await ctx.call('POST', '/v2/workspaces/search', { body: { searchValue: SECRET_URL } });
    await ctx.call('POST', '/v2/workspaces/search', {
      body: { searchValue: 'x', extra: nested([SECRET_URL], 10) },
    });
    expectRedacted(ctx.core.control.journal(2));
    expectRedacted(ctx.core.control.calls('workspaces.search'));
    expectRedacted(await ctx.core.control.waitFor('workspaces.search', { since: 'start', timeout: 0 }));
    expectRedacted((await ctx.call('GET', '/__mock/journal')).body);
    expect(ctx.core.control.calls('workspaces.search')[0]?.body).toEqual({ searchValue: SHOWN_URL });
  });

  it('a URL without secrets is kept as written; a string that only mentions a URL is kept', async () => {
    const m = mock();
    const plain = ['https://Hooks.Example.test', 'see https://u:p@h.test/?sig=x for more', 'http-ish: text'];
    await m.post('/__mock/scene', { notes: plain });
    expect(m.last().body).toEqual({ notes: plain });
  });
});

describe('redactUrls', () => {
  it('redacts every http(s) URL string at any depth, copying only what changes', () => {
    const untouched = { a: ['x', { b: 'https://h.test/ok' }] };
    const value = { untouched, deep: nested({ url: SECRET_URL }, 40), list: [SECRET_URL, 'y'] };
    const out = redactUrls(value, 1024)?.value as typeof value;
    expect(out).not.toBe(value);
    expect(out.untouched).toBe(untouched);
    expect(out.list).toEqual([SHOWN_URL, 'y']);
    expect(JSON.stringify(out)).not.toContain(SECRETS[0]);
    expect(JSON.stringify(value)).toContain(SECRETS[0]);
    expect(redactUrls(untouched, 1024)?.value).toBe(untouched);
  });

  it('reads a URL the WHATWG parser accepts in any spelling: case, spaces, tabs, backslashes, no slashes', () => {
    for (const raw of [
      ` HTTPS://u:pw-q7@h.test/p?sig=${SECRETS[0]}`,
      `ht\ttps://u:pw-q7@h.test/p?sig=${SECRETS[0]}`,
      `https:\\\\u:pw-q7@h.test/p?sig=${SECRETS[0]}`,
      `https:u:pw-q7@h.test/p?sig=${SECRETS[0]}`,
      `\n\thttp://u:pw-q7@h.test/p?sig=${SECRETS[0]}`,
    ]) {
      const out = redactUrls([raw], 1024)?.value as string[];
      expect(out[0], JSON.stringify(raw)).not.toContain(SECRETS[0]);
      expect(out[0], JSON.stringify(raw)).not.toContain('pw-q7');
    }
    // Starts as an http(s) URL but does not parse: read `[redacted]` as a whole where it has a place
    // for secrets (user info, a query, a fragment); text that only starts so is kept.
    expect(redactUrls(['https://u:pw-q7@[bad/?sig=x'], 1024)?.value).toEqual([REDACTED]);
    expect(redactUrls(['HTTPS: required', 'http: 500 errors'], 1024)?.value).toEqual([
      'HTTPS: required',
      'http: 500 errors',
    ]);
  });

  it('parses at most `budget` characters of URLs, else answers undefined', () => {
    expect(redactUrls(undefined, 0)).toEqual({ value: undefined });
    expect(redactUrls('https://u:p@h.test/', 100)).toEqual({ value: `https://${REDACTED}@h.test/` });
    const url = `https://h.test/?sig=${'s'.repeat(100)}`;
    expect(redactUrls([url], url.length)?.value).toEqual([`https://h.test/?sig=${REDACTED}`]);
    expect(redactUrls([url], url.length - 1)).toBeUndefined();
    expect(redactUrls([url, url], url.length * 2 - 1)).toBeUndefined();
    // A shared container is walked once.
    const shared = { u: url };
    expect(redactUrls([shared, shared, shared], url.length)?.value).toEqual([
      { u: `https://h.test/?sig=${REDACTED}` },
      { u: `https://h.test/?sig=${REDACTED}` },
      { u: `https://h.test/?sig=${REDACTED}` },
    ]);
  });

  it('the journal writes a body whose URLs are more than it keeps as too large, without parsing them', () => {
    const journal = new Journal({ maxBodyBytes: 200 });
    const url = `https://h.test/?sig=${'s'.repeat(300)}`;
    journal.record(
      { method: 'POST', path: '/__mock/scene', query: {}, headers: {} },
      { status: 400, headers: {}, body: undefined },
      'req_1',
      0,
      0,
      { value: { url: 'https://h.test/x', deep: [url] } },
      { endpoint: 'control' },
    );
    expect(journal.list()[0]?.body).toBe(tooLargeToKeepOver(200));
  });
});
