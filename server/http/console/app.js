// Start-up, sign-in (which view a token gets) and sign-out.
(function() {
'use strict';

const {replace, byId, showError, clearMessage, showStatus, busy} =
    window.dpq.dom;
const api = window.dpq.api;

// While a token is being tried, a 401 is the answer to that try, not a
// session that ended.
let signingIn = false;

// The admin token may list buyers; a buyer token gets PERMISSION_DENIED
// there; a token the server does not know gets UNAUTHENTICATED.
async function detectRole() {
  try {
    await api.get('/v1/admin/buyers');
    return 'admin';
  } catch (err) {
    if (err.httpStatus === 403) return 'buyer';
    throw err;
  }
}

async function start() {
  signingIn = true;
  let role;
  try {
    role = await detectRole();
  } catch (err) {
    if (err.stale) return;
    const notAccepted = err.httpStatus === 401;
    if (notAccepted) api.clearSession();
    showSignIn();
    showError(
        byId('signin-error'),
        notAccepted ?
            new Error(
                'This token was not accepted: check that it is complete and not revoked.') :
            err);
    return;
  } finally {
    signingIn = false;
  }
  enterView(role);
}

function enterView(role) {
  byId('signin').hidden = true;
  byId('session').hidden = false;
  clearMessage(byId('signin-error'));
  setWho(role === 'admin' ? 'Signed in as admin' : 'Signed in as a buyer');
  document.title = (role === 'admin' ? 'Admin' : 'Buyer') + ' · dpq console';
  const view = role === 'admin' ? window.dpq.admin : window.dpq.buyer;
  byId(role === 'admin' ? 'admin-title' : 'buyer-title').focus();
  view.show();
}

function setWho(text) {
  replace(byId('who'), text);
}

function showSignIn() {
  byId('signin').hidden = false;
  byId('session').hidden = true;
  document.title = 'dpq console';
}

async function onSignIn(event) {
  event.preventDefault();
  const input = byId('token');
  const token = input.value.trim();
  clearMessage(byId('signin-error'));
  clearMessage(byId('app-status'));
  if (!token) {
    showError(
        byId('signin-error'), new Error('Paste your access token first.'));
    input.focus();
    return;
  }
  api.setToken(token);
  // The token lives in sessionStorage from here on, not in the page.
  input.value = '';
  await busy(byId('signin-button'), start);
  if (!byId('signin').hidden) input.focus();
}

// Forgets the token and everything the session drew.
function signOut(message) {
  api.clearSession();
  window.dpq.buyer.reset();
  window.dpq.admin.reset();
  for (const el of document.querySelectorAll('[data-dynamic]')) replace(el);
  for (const el of document.querySelectorAll('[role="alert"], [role="status"]'))
    replace(el);
  for (const form of document.querySelectorAll('form')) form.reset();
  showSignIn();
  if (message) {
    showError(byId('signin-error'), new Error(message));
  } else {
    showStatus(byId('app-status'), 'You are signed out.');
  }
  byId('token').focus();
}

function init() {
  window.dpq.buyer.init(
      {onIdentity: (buyerId) => setWho('Signed in as buyer ' + buyerId)});
  window.dpq.admin.init();
  api.setUnauthorizedHandler(() => {
    if (signingIn) return false;
    signOut(
        'Your token is no longer accepted (it may have been revoked): sign in again.');
    return true;
  });
  byId('signin-form').addEventListener('submit', onSignIn);
  byId('signout').addEventListener('click', () => signOut(''));
  if (api.token()) {
    byId('signin').hidden = true;
    start();
  } else {
    showSignIn();
  }
}

init();
})();
