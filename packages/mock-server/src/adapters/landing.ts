/**
 * The standalone server's answer at `GET /`: what this server is, how to log in, the API's routes
 * and where the OpenAPI document is. HTML for a browser, JSON for everything else (curl, scripts).
 * It never shows a key: it says where the key pairs are.
 *
 * @module
 */
import { endpointList } from '@iacm/sdk/contract';
import { controlRouteListing } from '../control/routes.js';
import { VERSION } from '../version.js';

/** An answer with a ready body (the landing page is not JSON-serialised by the caller). */
export interface LandingAnswer {
  /** Always 200. */
  status: 200;
  /** `content-type` and `vary`. */
  headers: Record<string, string>;
  /** The page or the JSON text. */
  body: string;
}

/**
 * The mock's guide, at the package's repository (`repository` in its package.json): docs/ is not in
 * the published package, so a relative path would lead an `npx iacm-mock` user nowhere.
 */
export const DOCS_URL = 'https://github.com/iacm/iacm/blob/main/docs/mock-server.md';

/** The landing document as data (the JSON answer; the HTML page shows the same). */
export function landingDocument(baseUrl: string) {
  return {
    name: 'iacm mock server',
    version: VERSION,
    description: 'A stateful mock of the IaC management service API, with generated data.',
    baseUrl,
    openapi: `${baseUrl}/openapi.json`,
    login: {
      request: `POST ${baseUrl}/v2/login`,
      body: { accessKey: '<access key>', secretKey: '<secret key>' },
      keys: `on a loopback address the primary account's key pair is printed when the mock starts (elsewhere its access key only); every account's pair: GET ${baseUrl}/__mock/accounts`,
      useToken: 'send "Authorization: Bearer <accessToken>" with every other request',
    },
    routes: endpointList.map((endpoint) => ({
      method: endpoint.method,
      path: endpoint.path,
      summary: endpoint.summary,
      auth: endpoint.auth,
    })),
    controlPlane: {
      note: 'no token on a loopback address; elsewhere "Authorization: Bearer <control token>" (or off)',
      routes: controlRouteListing(),
      docs: DOCS_URL,
    },
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function landingHtml(baseUrl: string): string {
  const doc = landingDocument(baseUrl);
  const e = escapeHtml;
  const curl = [
    `TOKEN=$(curl -s -X POST ${baseUrl}/v2/login -H 'content-type: application/json' \\`,
    `  -d '{"accessKey":"<access key>","secretKey":"<secret key>"}' | sed -E 's/.*"accessToken":"([^"]+)".*/\\1/')`,
    `curl -s -X POST '${baseUrl}/v2/workspaces/search?pageSize=5' -H "authorization: Bearer $TOKEN" \\`,
    `  -H 'content-type: application/json' -d '{}'`,
  ].join('\n');
  const routes = doc.routes
    .map(
      (r) =>
        `<tr><td><code>${e(r.method)}</code></td><td><code>${e(r.path)}</code></td><td>${e(r.summary)}</td><td>${r.auth ? 'bearer token' : 'none'}</td></tr>`,
    )
    .join('\n');
  const control = doc.controlPlane.routes
    .map((r) => `<tr><td><code>${e(r.route)}</code></td><td>${e(r.summary)}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>iacm mock server ${e(doc.version)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.4; }
table { border-collapse: collapse; } td, th { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: left; }
pre { background: #f4f4f4; padding: 0.6rem; overflow-x: auto; }
</style>
</head>
<body>
<h1>iacm mock server ${e(doc.version)}</h1>
<p>${e(doc.description)} Base URL: <code>${e(baseUrl)}</code>.
The OpenAPI 3.1 document: <a href="/openapi.json">/openapi.json</a>.</p>
<h2>Log in</h2>
<p><code>POST /v2/login</code> with <code>{"accessKey": "…", "secretKey": "…"}</code> answers a bearer token;
${e(doc.login.useToken)}. On a loopback address the primary account's key pair is printed when the
mock starts (elsewhere its access key only); every account's pair: <a href="/__mock/accounts">GET /__mock/accounts</a>.</p>
<pre>${e(curl)}</pre>
<h2>API routes</h2>
<table>
<tr><th>Method</th><th>Path</th><th>What it does</th><th>Auth</th></tr>
${routes}
</table>
<h2>Control plane (no token on a loopback address; elsewhere the control token)</h2>
<p>The requests, webhook deliveries and sessions as they happen: <a href="/__mock/live">the live page</a> (unless the control plane is off).</p>
<table>
${control}
</table>
<p>More in <a href="${e(DOCS_URL)}">the mock server's guide</a>.</p>
</body>
</html>
`;
}

/**
 * The answer to `GET /`: the HTML page when the `Accept` header asks for `text/html` (a browser),
 * else the JSON document (curl sends `Accept: *\/*`).
 * @param baseUrl this server's base URL.
 * @param accept the request's `Accept` header.
 */
export function landingAnswer(baseUrl: string, accept: string | undefined): LandingAnswer {
  const html = /\btext\/html\b/i.test(accept ?? '');
  return {
    status: 200,
    headers: {
      'content-type': html ? 'text/html; charset=utf-8' : 'application/json',
      vary: 'accept',
      'cache-control': 'no-store',
    },
    body: html ? landingHtml(baseUrl) : JSON.stringify(landingDocument(baseUrl), null, 2),
  };
}
