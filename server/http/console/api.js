// The JSON API of dpq-server (the HTTP routes of proto/dpq/v1/*.proto,
// protobuf's canonical JSON mapping), the bearer token, and the errors.
(function() {
'use strict';

// sessionStorage only: the token dies with the tab, is never written to
// disk, and never travels in a URL; only the Authorization header carries
// it.
const TOKEN_KEY = 'dpq.console.token';

// Incremented by every sign-out: an answer to a request of an earlier
// session is dropped instead of being drawn into the new one.
let session = 0;
let onUnauthorized = null;

// An error answer of the server ({"error": {code, status, message,
// details}}), or a failure to reach it (status 0).
class ApiError extends Error {
  constructor(httpStatus, body) {
    const error = (body && body.error) || {};
    super(error.message || describeHttpStatus(httpStatus));
    this.name = 'ApiError';
    this.httpStatus = httpStatus;
    this.status = error.status || '';
    this.details = Array.isArray(error.details) ? error.details : [];
    const info = this.details.find(
        (d) => d && typeof d['@type'] === 'string' &&
            d['@type'].endsWith('google.rpc.ErrorInfo'));
    this.reason = info && info.reason ? info.reason : '';
    this.metadata = info && info.metadata ? info.metadata : {};
  }

  // Whether the same request may simply be sent again (the server did not
  // answer, or said so).
  get retryable() {
    return this.httpStatus === 0 || this.httpStatus >= 500 ||
        ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'ABORTED'].includes(this.status);
  }
}

function describeHttpStatus(httpStatus) {
  if (httpStatus === 0) return 'The server could not be reached.';
  return 'The server answered HTTP ' + httpStatus + '.';
}

// Thrown for answers that arrive after a sign-out; dom.showError ignores it.
class StaleError extends Error {
  constructor() {
    super('signed out');
    this.stale = true;
  }
}

function token() {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

function setToken(value) {
  sessionStorage.setItem(TOKEN_KEY, value);
}

// Sign-out forgets everything this tab kept: the whole sessionStorage.
function clearSession() {
  session += 1;
  sessionStorage.clear();
}

// Query parameters of a GET route: empty values are left out, so the
// server sees its defaults.
function withQuery(path, query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query || {})) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? path + '?' + text : path;
}

// Path segments come from the server or the user: always escaped.
function seg(value) {
  return encodeURIComponent(value);
}

async function call(method, path, body) {
  const mySession = session;
  const headers = {Accept: 'application/json'};
  const bearer = token();
  if (bearer) headers.Authorization = 'Bearer ' + bearer;
  const init = {method, headers, cache: 'no-store', credentials: 'omit'};
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (networkError) {
    if (mySession !== session) throw new StaleError();
    throw new ApiError(0, null);
  }
  const text = await response.text();
  if (mySession !== session) throw new StaleError();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch (parseError) {
    parsed = null;
  }
  if (!response.ok) {
    const err = new ApiError(response.status, parsed);
    // A token that stops working mid-session (revoked) ends the session;
    // the caller then has nothing left to draw into.
    if (response.status === 401 && onUnauthorized && onUnauthorized(err))
      throw new StaleError();
    throw err;
  }
  if (parsed === null)
    throw new ApiError(
        response.status,
        {error: {message: 'The server sent an answer that is not JSON.'}});
  return parsed;
}

function get(path, query) {
  return call('GET', withQuery(path, query));
}

function post(path, body) {
  return call('POST', path, body || {});
}

// Every page of a listing that pages with pageToken / nextPageToken.
async function getAllPages(path, field, query) {
  const items = [];
  let pageToken = '';
  for (let page = 0; page < 100; page += 1) {
    const answer = await get(path, Object.assign({}, query, {pageToken}));
    items.push(...(answer[field] || []));
    pageToken = answer.nextPageToken || '';
    if (!pageToken) break;
  }
  return items;
}

// A client-chosen idempotency key for one confirmed purchase.
// crypto.randomUUID exists only in secure contexts (HTTPS or localhost);
// a plaintext listener on another host falls back to getRandomValues.
function newRequestId() {
  if (window.crypto && typeof window.crypto.randomUUID === 'function') {
    return window.crypto.randomUUID();
  }
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex =
      Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return [
    hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20),
    hex.slice(20)
  ].join('-');
}

window.dpq = window.dpq || {};
window.dpq.api = {
  ApiError,
  token,
  setToken,
  clearSession,
  get,
  post,
  getAllPages,
  seg,
  newRequestId,
  setUnauthorizedHandler(handler) {
    onUnauthorized = handler;
  },
};
})();
