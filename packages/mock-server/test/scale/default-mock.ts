/**
 * What the memory budget's attack tests share (`budget-attacks*.test.ts`): the child's prelude of a
 * mock at the default options, logged in as its primary account's API user, and the slack an attack
 * allows itself besides its bound.
 */

/** What an attack allows itself besides the budget: the request machinery and the data's own state. */
export const SLACK = 24 * 1024 * 1024;

/**
 * The child's prelude: a mock at the default options (`core`), logged in as its primary account's API
 * user; `send(method, path, body, extraHeaders)` as that user; `limit`, the mock's budget in bytes.
 */
export const DEFAULT_MOCK = `
  const { MockCore } = await import(src + '/app/mock.ts');
  const core = new MockCore({});
  const [primary] = core.accounts();
  const login = await core.handle({ method: 'POST', path: '/v2/login', body: { accessKey: primary.accessKey, secretKey: primary.secretKey } });
  const headers = { authorization: 'Bearer ' + login.body.accessToken, 'content-type': 'application/json' };
  const send = (method, path, body, extra = {}) => core.handle({ method, path, body, headers: { ...headers, ...extra } });
  const limit = core.control.budget().limit;
`;
