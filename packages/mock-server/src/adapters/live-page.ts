/**
 * The standalone server's live page: `GET /__mock/live` (the page), `/__mock/live.js` (its script)
 * and `/__mock/live.css` (its style), static text that holds no data. The script polls
 * `GET /__mock/live/feed` (a control route: the control token, when the mock has one, is asked for
 * on the page, kept in the page's memory only, and sent as `Authorization: Bearer`, never in a URL)
 * and shows the requests, the delivery attempts, the sessions and the mock's clock as they come,
 * every value as text (`textContent`). A Content-Security-Policy allows only the page's own script,
 * style and requests.
 *
 * @module
 */
import { endpointList } from '@iacm/sdk/contract';
import { SESSION_HEADER } from '../control/remote-wire.js';
import { VERSION } from '../version.js';

/** The paths of the live page, its script and its style. */
export const LIVE_PATHS = Object.freeze({
  page: '/__mock/live',
  script: '/__mock/live.js',
  style: '/__mock/live.css',
});

/**
 * The Content-Security-Policy of the live page: its own script and style only (no inline script,
 * no `eval`), requests to its own origin only, no form submission, no framing.
 */
export const LIVE_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A static answer: status 200, its headers and its text. */
export interface LivePageAnswer {
  /** Always 200. */
  status: 200;
  /** The content type, the CSP and the other security headers. */
  headers: Record<string, string>;
  /** The text. */
  body: string;
}

/** The headers every live page answer has. */
function headersFor(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-security-policy': LIVE_PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The page: a form for the token, the filters, the clock, and the tables the script fills in. */
function pageHtml(): string {
  const options = endpointList
    .map((e) => `<option value="${escapeHtml(e.name)}">${escapeHtml(e.name)}</option>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>iacm mock: live</title>
<link rel="stylesheet" href="${LIVE_PATHS.style}">
<script src="${LIVE_PATHS.script}" defer></script>
</head>
<body>
<header>
<h1>iacm mock ${escapeHtml(VERSION)}: live</h1>
<p>The requests, webhook deliveries and sessions of this mock as they happen, read from
<code>GET /__mock/live/feed</code> (credentials redacted as the journal keeps them). <a href="/">Routes</a></p>
</header>
<form id="token-form" data-testid="token-form" autocomplete="off">
<label>Control token <input id="token" data-testid="token" type="password" autocomplete="off" placeholder="only when the mock has one"></label>
<button type="submit" data-testid="connect">Connect</button>
<span id="status" data-testid="status" role="status">not connected</span>
</form>
<section id="filters">
<label>Endpoint <select id="endpoint" data-testid="endpoint-filter">
<option value="">every endpoint</option>
<option value="control">control plane</option>
${options}
</select></label>
<label>Session <select id="session" data-testid="session-filter">
<option value="">default session</option>
</select></label>
<span>Mock clock: <time id="clock" data-testid="clock">–</time></span>
</section>
<main>
<section>
<h2>Requests <span id="request-count" data-testid="request-count">0</span></h2>
<table data-testid="requests">
<thead><tr><th>Time</th><th>Request</th><th>Endpoint</th><th>Account</th><th>Status</th><th>ms</th></tr></thead>
<tbody id="requests"></tbody>
</table>
</section>
<aside>
<h2>Request <span id="detail-id" data-testid="detail-id"></span></h2>
<p class="hint">Click a request to see its inputs as the journal keeps them.</p>
<pre id="detail" data-testid="detail"></pre>
</aside>
<section>
<h2>Webhook deliveries <span id="delivery-count" data-testid="delivery-count">0</span></h2>
<table data-testid="deliveries">
<thead><tr><th>Time</th><th>Attempt</th><th>Integration</th><th>Kind</th><th>Try</th><th>Status</th><th>Outcome</th></tr></thead>
<tbody id="deliveries"></tbody>
</table>
</section>
<section>
<h2>Sessions <span id="session-count" data-testid="session-count">0</span></h2>
<table data-testid="sessions">
<thead><tr><th>Id</th><th>Created</th><th>Last used</th></tr></thead>
<tbody id="sessions"></tbody>
</table>
</section>
</main>
</body>
</html>
`;
}

/** The page's style. */
const STYLE = `body { font-family: system-ui, sans-serif; margin: 1rem 1.5rem; line-height: 1.35; color: #1b1b1b; }
h1 { font-size: 1.4rem; margin: 0 0 0.2rem; } h2 { font-size: 1.05rem; margin: 1rem 0 0.4rem; }
header p { margin: 0 0 0.8rem; color: #555; }
form, #filters { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; margin-bottom: 0.6rem; }
#status { color: #555; } #status.error { color: #b00020; } #status.ok { color: #1b7f3b; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 0 1.5rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
td, th { border-bottom: 1px solid #ddd; padding: 0.15rem 0.5rem; text-align: left; white-space: nowrap; }
tbody tr { cursor: pointer; } tbody tr:hover, tbody tr.selected { background: #eef4ff; }
td.status-2 { color: #1b7f3b; } td.status-4, td.status-5, td.status-0 { color: #b00020; }
pre { background: #f4f4f4; padding: 0.6rem; overflow: auto; max-height: 32rem; font-size: 0.8rem; white-space: pre-wrap; word-break: break-all; }
.hint { color: #555; font-size: 0.85rem; margin: 0; }
`;

/**
 * The page's script: plain JavaScript, no framework, no `innerHTML` (every value becomes text). The
 * token lives in a variable of this closure only (never in a URL, storage or the DOM), sent as a
 * header on each `fetch`.
 */
const SCRIPT = `'use strict';
(function () {
  var FEED = '/__mock/live/feed';
  var SESSION_HEADER = ${JSON.stringify(SESSION_HEADER)};
  var POLL_MS = 1000;
  var MAX_ROWS = 500;
  var token = '';
  var session = '';
  var endpoint = '';
  var since = 'start';
  var deliveriesSince = 'start';
  var timer = 0;
  var generation = 0;
  var requests = 0;
  var deliveries = 0;

  function byId(id) { return document.getElementById(id); }
  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text === undefined || text === null ? '' : String(text);
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }
  function setStatus(text, kind) {
    var status = byId('status');
    status.textContent = text;
    status.className = kind || '';
  }
  function prepend(body, row) {
    body.insertBefore(row, body.firstChild);
    while (body.childNodes.length > MAX_ROWS) body.removeChild(body.lastChild);
  }
  function clear(body) { while (body.firstChild) body.removeChild(body.firstChild); }
  function timeOf(iso) { return typeof iso === 'string' ? iso.slice(11, 23) : ''; }

  function showDetail(entry, row) {
    var rows = byId('requests').querySelectorAll('tr.selected');
    for (var i = 0; i < rows.length; i++) rows[i].className = '';
    row.className = 'selected';
    byId('detail-id').textContent = entry.id;
    var shown = {
      id: entry.id, time: entry.time, method: entry.method, path: entry.path,
      endpoint: entry.endpoint, accountId: entry.accountId, status: entry.status,
      query: entry.query, input: entry.input, body: entry.body, headers: entry.headers
    };
    byId('detail').textContent = JSON.stringify(shown, null, 2);
  }

  function addEntry(entry) {
    var row = document.createElement('tr');
    row.setAttribute('data-testid', 'request-row');
    cell(row, timeOf(entry.time));
    cell(row, entry.method + ' ' + entry.path);
    cell(row, entry.endpoint || '', 'endpoint');
    cell(row, entry.accountId || '');
    cell(row, entry.status, 'status status-' + String(entry.status).charAt(0));
    cell(row, entry.durationMs);
    row.addEventListener('click', function () { showDetail(entry, row); });
    prepend(byId('requests'), row);
    requests += 1;
    byId('request-count').textContent = String(requests);
  }

  function addAttempt(attempt) {
    var row = document.createElement('tr');
    row.setAttribute('data-testid', 'delivery-row');
    cell(row, timeOf(attempt.time));
    cell(row, attempt.id);
    cell(row, attempt.integrationId);
    cell(row, attempt.kind);
    cell(row, attempt.attempt);
    cell(row, attempt.error ? attempt.status + ' ' + attempt.error : attempt.status);
    cell(row, attempt.outcome + (attempt.nextAttemptAt ? ' (next ' + timeOf(attempt.nextAttemptAt) + ')' : ''));
    row.addEventListener('click', function () {
      byId('detail-id').textContent = attempt.id;
      byId('detail').textContent = JSON.stringify(attempt, null, 2);
    });
    prepend(byId('deliveries'), row);
    deliveries += 1;
    byId('delivery-count').textContent = String(deliveries);
  }

  function showSessions(list) {
    var body = byId('sessions');
    clear(body);
    var select = byId('session');
    var keep = select.value;
    while (select.options.length > 1) select.remove(1);
    for (var i = 0; i < list.length; i++) {
      var row = document.createElement('tr');
      row.setAttribute('data-testid', 'session-row');
      cell(row, list[i].id);
      cell(row, list[i].createdAt);
      cell(row, list[i].lastUsedAt);
      body.appendChild(row);
      var option = document.createElement('option');
      option.value = list[i].id;
      option.textContent = list[i].id;
      select.appendChild(option);
    }
    select.value = keep;
    if (select.value !== keep) select.value = '';
    byId('session-count').textContent = String(list.length);
  }

  function restartRequests() {
    clear(byId('requests'));
    requests = 0;
    byId('request-count').textContent = '0';
    since = 'start';
  }
  function restartDeliveries() {
    clear(byId('deliveries'));
    deliveries = 0;
    byId('delivery-count').textContent = '0';
    deliveriesSince = 'start';
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  function poll() {
    var mine = generation;
    var query = new URLSearchParams();
    query.set('since', since);
    query.set('deliveriesSince', deliveriesSince);
    query.set('limit', '200');
    if (endpoint) query.set('endpoint', endpoint);
    var headers = {};
    if (token) headers.authorization = 'Bearer ' + token;
    if (session) headers[SESSION_HEADER] = session;
    fetch(FEED + '?' + query.toString(), { headers: headers, cache: 'no-store', credentials: 'omit' })
      .then(function (response) {
        return response.json().then(function (body) { return { status: response.status, body: body }; });
      })
      .then(function (answer) {
        if (mine !== generation) return;
        if (answer.status === 403) {
          setStatus('this mock needs its control token: enter it above', 'error');
          return;
        }
        if (answer.status === 404 && session) {
          setStatus('session ' + session + ' has ended: back to the default session', 'error');
          session = '';
          byId('session').value = '';
          restartRequests();
          restartDeliveries();
          schedule(0);
          return;
        }
        if (answer.status !== 200) {
          setStatus('the feed answered ' + answer.status + ': ' + (answer.body && answer.body.message), 'error');
          schedule(POLL_MS * 3);
          return;
        }
        var feed = answer.body;
        if (feed.journal.restarted) restartRequests();
        if (feed.deliveries.restarted) restartDeliveries();
        for (var i = 0; i < feed.journal.entries.length; i++) addEntry(feed.journal.entries[i]);
        for (var j = 0; j < feed.deliveries.attempts.length; j++) addAttempt(feed.deliveries.attempts[j]);
        since = feed.journal.cursor;
        deliveriesSince = feed.deliveries.cursor;
        if (feed.sessions) showSessions(feed.sessions);
        byId('clock').textContent = feed.now;
        setStatus('connected' + (session ? ' to session ' + session : '') + ', polling every second', 'ok');
        schedule(feed.journal.more || feed.deliveries.more ? 0 : POLL_MS);
      })
      .catch(function (error) {
        if (mine !== generation) return;
        setStatus('cannot reach the mock: ' + (error && error.message), 'error');
        schedule(POLL_MS * 3);
      });
  }

  function restart() {
    generation += 1;
    restartRequests();
    restartDeliveries();
    byId('detail').textContent = '';
    byId('detail-id').textContent = '';
    schedule(0);
  }

  document.addEventListener('DOMContentLoaded', function () {
    byId('token-form').addEventListener('submit', function (event) {
      event.preventDefault();
      var input = byId('token');
      token = input.value;
      input.value = '';
      setStatus('connecting…');
      restart();
    });
    byId('endpoint').addEventListener('change', function (event) {
      endpoint = event.target.value;
      generation += 1;
      restartRequests();
      schedule(0);
    });
    byId('session').addEventListener('change', function (event) {
      session = event.target.value;
      restart();
    });
    restart();
  });
})();
`;

/**
 * The answer to `GET` of one of {@link LIVE_PATHS}, or `undefined` for any other path.
 * @param path the request's path.
 */
export function livePageAnswer(path: string): LivePageAnswer | undefined {
  if (path === LIVE_PATHS.page) {
    return { status: 200, headers: headersFor('text/html; charset=utf-8'), body: pageHtml() };
  }
  if (path === LIVE_PATHS.script) {
    return { status: 200, headers: headersFor('text/javascript; charset=utf-8'), body: SCRIPT };
  }
  if (path === LIVE_PATHS.style) {
    return { status: 200, headers: headersFor('text/css; charset=utf-8'), body: STYLE };
  }
  return undefined;
}
