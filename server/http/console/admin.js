// The admin view: datasets (caps, epsilon spent by all buyers, a bar
// chart), buyers (create, revoke), budgets (grant, set), the ledger and the
// audit log, both filtered and paged.
(function() {
'use strict';

const {
  h,
  replace,
  byId,
  dataTable,
  showError,
  clearMessage,
  showStatus,
  busy,
  fillSelect
} = window.dpq.dom;
const api = window.dpq.api;
const fmt = window.dpq.format;
const charts = window.dpq.charts;

const state = {
  datasets: [],
  buyers: [],
  revoking: ''
};

// ---- Paging ----------------------------------------------------------------

// Pages follow the server's nextPageToken. The tokens of the pages
// before the current one are kept on a stack, so Previous goes back
// without the server having to page backwards.
class Pager {
  constructor(prefix, load) {
    this.prev = byId(prefix + '-prev');
    this.next = byId(prefix + '-next');
    this.info = byId(prefix + '-page');
    this.load = load;
    this.reset();
    this.prev.addEventListener('click', () => this.go(-1));
    this.next.addEventListener('click', () => this.go(1));
  }

  reset() {
    this.loading = false;
    this.before = [];
    this.token = '';
    this.nextToken = '';
  }

  async go(direction) {
    // One page at a time: a double click must not skip a page.
    if (this.loading) return;
    if (direction > 0 && this.nextToken) {
      this.before.push(this.token);
      this.token = this.nextToken;
    } else if (direction < 0 && this.before.length) {
      this.token = this.before.pop();
    } else {
      return;
    }
    const clicked = direction > 0 ? this.next : this.prev;
    this.loading = true;
    try {
      await this.load();
    } finally {
      this.loading = false;
    }
    // A button that just became disabled drops the keyboard focus: hand
    // it to the other one.
    if (clicked.disabled) (direction > 0 ? this.prev : this.next).focus();
  }

  // Called by load() with the answer's token and the rows shown.
  update(nextToken, count) {
    this.nextToken = nextToken || '';
    this.prev.disabled = this.before.length === 0;
    this.next.disabled = !this.nextToken;
    const page = this.before.length + 1;
    replace(
        this.info,
        'Page ' + page + ': ' + fmt.plural(count, 'entry', 'entries') +
            (this.nextToken ? ', older ones on the next page' : ''));
  }
}

let ledgerPager = null;
let auditPager = null;

function limitOf(input) {
  const n = Math.floor(Number(input.value));
  if (!Number.isFinite(n) || n < 1) return 20;
  return Math.min(n, 10000);
}

// ---- Datasets
// ----------------------------------------------------------------

async function loadDatasets() {
  clearMessage(byId('admin-datasets-error'));
  try {
    state.datasets = await api.getAllPages('/v1/admin/datasets', 'datasets');
    renderDatasets();
    fillDatasetSelects();
  } catch (err) {
    showError(byId('admin-datasets-error'), err);
  }
}

function datasetId(d) {
  return (d.dataset || {}).datasetId || '';
}

function graphText(stats) {
  if (stats.graphReady) return 'ready';
  if (stats.graphError) return 'failed: ' + stats.graphError;
  return 'rebuilding';
}

function renderDatasets() {
  replace(
      byId('admin-datasets'), dataTable({
        id: 'admin-datasets-table',
        caption: 'Datasets (' + state.datasets.length + ')',
        empty:
            'No dataset is registered. Register one with the dpq command-line client.',
        rows: state.datasets,
        rowAttrs: (d) => ({dataset: {datasetId: datasetId(d)}}),
        columns: [
          {label: 'Dataset', cell: datasetId},
          {
            label: 'Description',
            cell: (d) => (d.dataset || {}).description,
            className: 'wrap'
          },
          {label: 'Kind', cell: (d) => fmt.kind((d.dataset || {}).kind)},
          {
            label: 'Version',
            cell: (d) => fmt.groupDigits((d.dataset || {}).version),
            numeric: true
          },
          {
            label: 'Rows',
            cell: (d) => fmt.groupDigits((d.stats || {}).rows),
            numeric: true
          },
          {
            label: 'Conflicting pairs',
            numeric: true,
            cell: (d) => fmt.groupDigits((d.stats || {}).edges)
          },
          {
            label: 'Spent ε (all buyers)',
            numeric: true,
            className: 'spent-all',
            cell: (d) => fmt.units(d.spentAllBuyersUnits)
          },
          {
            label: 'Cap ε',
            numeric: true,
            cell: (d) =>
                (fmt.toBigInt(d.capUnits) > 0n ? fmt.units(d.capUnits) : 'none')
          },
          {
            label: 'Release cost',
            cell: (d) => (d.stats || {}).releaseCost || ''
          },
          {label: 'Conflict graph', cell: (d) => graphText(d.stats || {})},
        ],
      }));
  renderDatasetChart();
}

function renderDatasetChart() {
  const bars =
      state.datasets.map((d) => ({
                           label: datasetId(d),
                           value: fmt.unitsToNumber(d.spentAllBuyersUnits),
                           valueText: 'ε ' + fmt.units(d.spentAllBuyersUnits),
                           cap: fmt.unitsToNumber(d.capUnits),
                           capText: 'cap ε ' + fmt.units(d.capUnits),
                         }));
  const summary = bars.length ? 'Epsilon spent by all buyers together: ' +
          bars.map(
                  (b) => b.label + ' ' + b.valueText +
                      (b.cap > 0 ? ' (' + b.capText + ')' : ''))
              .join('; ') +
          '.' :
                                'No datasets.';
  charts.barChart(byId('dataset-chart'), {
    title: 'Epsilon spent per dataset, all buyers',
    desc: summary + ' A vertical mark shows a dataset\'s cap.',
    bars,
  });
  replace(byId('dataset-chart-summary'), summary);
}

function fillDatasetSelects() {
  const options =
      state.datasets.map((d) => ({value: datasetId(d), label: datasetId(d)}));
  for (const id of ['grant-dataset', 'set-dataset', 'cap-dataset'])
    fillSelect(byId(id), options);
  fillSelect(
      byId('ledger-dataset'),
      [{value: '', label: 'All datasets'}].concat(options));
}

async function onSetCap(event) {
  event.preventDefault();
  const form = event.currentTarget;
  clearMessage(byId('cap-error'));
  clearMessage(byId('cap-status'));
  const dataset = byId('cap-dataset').value;
  const cap = Number(byId('cap-value').value);
  if (!dataset || byId('cap-value').value === '' || !Number.isFinite(cap) ||
      cap < 0) {
    showError(
        byId('cap-error'),
        new Error('Choose a dataset and a cap of 0 or more.'));
    return;
  }
  await busy(form.querySelector('button[type=submit]'), async () => {
    try {
      await api.post(
          '/v1/admin/datasets/' + api.seg(dataset) + ':setCap', {cap});
      showStatus(
          byId('cap-status'),
          cap > 0 ?
              'The cap of ' + dataset + ' is now ε ' + fmt.decimal(cap) + '.' :
              'The cap of ' + dataset + ' is removed.');
      await Promise.all([loadDatasets(), reloadAudit()]);
    } catch (err) {
      showError(byId('cap-error'), err);
    }
  });
}

// ---- Buyers
// --------------------------------------------------------------------

async function loadBuyers() {
  clearMessage(byId('buyers-error'));
  try {
    const answer = await api.get('/v1/admin/buyers');
    state.buyers = answer.buyers || [];
    renderBuyers();
    fillBuyerSelects();
  } catch (err) {
    showError(byId('buyers-error'), err);
  }
}

function renderBuyers() {
  replace(byId('buyers'), dataTable({
            id: 'buyers-table',
            caption: 'Buyers (' + state.buyers.length + ')',
            empty: 'No buyer yet: create one below.',
            rows: state.buyers,
            rowAttrs: (b) => ({
              dataset: {buyerId: b.buyerId},
              class: b.revoked ? 'revoked' : null
            }),
            columns: [
              {label: 'Buyer', cell: (b) => b.buyerId},
              {
                label: 'Created',
                cell: (b) => fmt.time(b.createdAt),
                className: 'nowrap'
              },
              {
                label: 'Status',
                cell: (b) =>
                    h('span', {
                      class: b.revoked ? 'badge badge-revoked' :
                                         'badge badge-active'
                    },
                      b.revoked ? 'revoked' : 'active')
              },
              {
                label: 'Action',
                cell: (b) =>
                    (b.revoked ? '' :
                                 h('button', {
                                   type: 'button',
                                   class: 'button small danger-outline',
                                   'aria-label': 'Revoke ' + b.buyerId,
                                   dataset: {revoke: b.buyerId},
                                   on: {click: () => askRevoke(b.buyerId)}
                                 },
                                   'Revoke'))
              },
            ],
          }));
}

function fillBuyerSelects() {
  const active = state.buyers.filter((b) => !b.revoked)
                     .map((b) => ({value: b.buyerId, label: b.buyerId}));
  for (const id of ['grant-buyer', 'set-buyer']) fillSelect(byId(id), active);
  const all =
      state.buyers.map((b) => ({
                         value: b.buyerId,
                         label: b.buyerId + (b.revoked ? ' (revoked)' : '')
                       }));
  fillSelect(
      byId('ledger-buyer'), [{value: '', label: 'All buyers'}].concat(all));
}

// Revoking cannot be undone, so it asks first, in the page (a native
// confirm() dialog would block the page and read poorly).
function askRevoke(buyerId) {
  state.revoking = buyerId;
  clearMessage(byId('buyers-status'));
  replace(
      byId('revoke-question'), 'Revoke ', h('strong', null, buyerId),
      '? Their token stops working at once; their ledger entries are kept. This cannot be undone.');
  byId('revoke-yes').textContent = 'Yes, revoke ' + buyerId;
  byId('revoke-confirm').hidden = false;
  byId('revoke-no').focus();
}

function closeRevoke() {
  state.revoking = '';
  byId('revoke-confirm').hidden = true;
  replace(byId('revoke-question'));
}

async function onRevokeYes(event) {
  const buyerId = state.revoking;
  if (!buyerId) return;
  clearMessage(byId('buyers-error'));
  await busy(event.currentTarget, async () => {
    try {
      await api.post('/v1/admin/buyers/' + api.seg(buyerId) + ':revoke', {});
      closeRevoke();
      showStatus(
          byId('buyers-status'),
          buyerId + ' is revoked: their token no longer works.');
      await Promise.all([loadBuyers(), reloadAudit()]);
      byId('admin-buyers-title').focus();
    } catch (err) {
      showError(byId('buyers-error'), err);
    }
  });
}

async function onCreateBuyer(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const name = byId('new-buyer-name').value.trim();
  clearMessage(byId('create-buyer-error'));
  if (!name) {
    showError(
        byId('create-buyer-error'), new Error('Enter the new buyer\'s name.'));
    byId('new-buyer-name').focus();
    return;
  }
  await busy(form.querySelector('button[type=submit]'), async () => {
    try {
      const answer = await api.post('/v1/admin/buyers', {name});
      form.reset();
      showToken((answer.buyer || {}).buyerId || name, answer.token || '');
      await Promise.all([loadBuyers(), reloadAudit()]);
    } catch (err) {
      showError(byId('create-buyer-error'), err);
    }
  });
}

// The token exists in the page only until it is hidden or the admin
// signs out; it is never stored.
function showToken(buyerId, token) {
  replace(byId('new-token-buyer'), buyerId);
  replace(byId('new-token'), token);
  clearMessage(byId('copy-status'));
  byId('new-token-box').hidden = false;
  byId('new-token-title').focus();
}

function hideToken() {
  replace(byId('new-token'));
  replace(byId('new-token-buyer'));
  byId('new-token-box').hidden = true;
  byId('new-buyer-name').focus();
}

async function copyToken() {
  try {
    await navigator.clipboard.writeText(byId('new-token').textContent);
    showStatus(byId('copy-status'), 'Copied to the clipboard.');
  } catch (err) {
    showStatus(
        byId('copy-status'),
        'The browser refused to copy: select the token and copy it by hand.');
  }
}

// ---- Budgets
// -------------------------------------------------------------------

function budgetText(budget) {
  return budget.buyerId + ' on ' + budget.datasetId + ': granted ε ' +
      fmt.units(budget.grantedUnits) + ', spent ε ' +
      fmt.units(budget.spentUnits) + ', reserved ε ' +
      fmt.units(budget.reservedUnits) + ', remaining ε ' +
      fmt.units(budget.remainingUnits) + '.';
}

// Grant and Set share their form layout: buyer, dataset, one amount.
function budgetFormHandler(prefix, route, field) {
  return async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const errorEl = byId(prefix + '-error');
    const statusEl = byId(prefix + '-status');
    clearMessage(errorEl);
    clearMessage(statusEl);
    const buyerId = byId(prefix + '-buyer').value;
    const datasetIdValue = byId(prefix + '-dataset').value;
    const amountInput = form.elements[field];
    const amount = Number(amountInput.value);
    const badAmount =
        amountInput.value === '' || !Number.isFinite(amount) || amount < 0;
    if (!buyerId || !datasetIdValue || badAmount) {
      showError(
          errorEl,
          new Error('Choose a buyer and a dataset, and enter an amount of ε.'));
      return;
    }
    const body = {buyerId, datasetId: datasetIdValue};
    body[field] = amount;
    await busy(form.querySelector('button[type=submit]'), async () => {
      try {
        const answer = await api.post(route, body);
        showStatus(statusEl, 'Done. ' + budgetText(answer.budget || {}));
        amountInput.value = '';
        await Promise.all([reloadLedger(), reloadAudit()]);
      } catch (err) {
        showError(errorEl, err);
      }
    });
  };
}

// ---- Ledger
// -------------------------------------------------------------------

// The filter in force: read when Show is pressed, not on every page, so
// the pages of one listing share one filter.
let ledgerQuery = {buyerId: '', datasetId: '', limit: 20};

async function loadLedger() {
  clearMessage(byId('ledger-error'));
  try {
    const answer = await api.get(
        '/v1/admin/ledger',
        Object.assign({}, ledgerQuery, {pageToken: ledgerPager.token}));
    renderLedger(answer);
    ledgerPager.update(answer.nextPageToken, (answer.entries || []).length);
  } catch (err) {
    showError(byId('ledger-error'), err);
  }
}

function reloadLedger() {
  ledgerPager.reset();
  return loadLedger();
}

function filterText() {
  const parts = [];
  if (ledgerQuery.buyerId) parts.push('buyer ' + ledgerQuery.buyerId);
  if (ledgerQuery.datasetId) parts.push('dataset ' + ledgerQuery.datasetId);
  return parts.length ? ' (' + parts.join(', ') + ')' : ' (all)';
}

function renderLedger(answer) {
  const budgets = answer.budgets || [];
  const entries = answer.entries || [];
  replace(byId('ledger-budgets'), dataTable({
            id: 'budgets-table',
            caption: 'Budgets' + filterText(),
            empty: 'No budget matches the filter.',
            rows: budgets,
            rowAttrs: (b) =>
                ({dataset: {buyerId: b.buyerId, datasetId: b.datasetId}}),
            columns: [
              {label: 'Buyer', cell: (b) => b.buyerId},
              {label: 'Dataset', cell: (b) => b.datasetId},
              {
                label: 'Granted ε',
                numeric: true,
                className: 'granted',
                cell: (b) => fmt.units(b.grantedUnits)
              },
              {
                label: 'Spent ε',
                numeric: true,
                className: 'spent',
                cell: (b) => fmt.units(b.spentUnits)
              },
              {
                label: 'Reserved ε',
                numeric: true,
                className: 'reserved',
                cell: (b) => fmt.units(b.reservedUnits)
              },
              {
                label: 'Remaining ε',
                numeric: true,
                className: 'remaining',
                cell: (b) => fmt.units(b.remainingUnits)
              },
            ],
          }));
  replace(
      byId('ledger-entries'), dataTable({
        id: 'ledger-table',
        caption: 'Ledger entries' + filterText() + ', newest first',
        empty: 'No ledger entry matches the filter.',
        rows: entries,
        rowAttrs: (e) => ({
          dataset:
              {buyerId: e.buyerId, datasetId: e.datasetId, entryId: e.entryId},
        }),
        columns: [
          {
            label: 'Entry',
            cell: (e) => e.buyerId + ' #' + e.entryId,
            className: 'nowrap'
          },
          {label: 'Buyer', cell: (e) => e.buyerId, className: 'buyer'},
          {label: 'Dataset', cell: (e) => e.datasetId, className: 'dataset'},
          {
            label: 'Reserved at',
            cell: (e) => fmt.time(e.createdAt),
            className: 'nowrap'
          },
          {
            label: 'Settled at',
            cell: (e) => fmt.time(e.settledAt),
            className: 'nowrap'
          },
          {label: 'Release', cell: (e) => e.operation, className: 'wrap'},
          {label: 'ε', cell: (e) => fmt.units(e.epsilonUnits), numeric: true},
          {label: 'State', cell: (e) => fmt.state(e.state)},
          {
            label: 'Request id',
            cell: (e) => h('code', null, e.requestId),
            className: 'mono'
          },
        ],
      }));
}

async function onLedgerFilter(event) {
  event.preventDefault();
  ledgerQuery = {
    buyerId: byId('ledger-buyer').value,
    datasetId: byId('ledger-dataset').value,
    limit: limitOf(byId('ledger-limit')),
  };
  await busy(byId('ledger-apply'), reloadLedger);
}

// ---- Audit log
// -------------------------------------------------------------------

let auditQuery = {action: '', limit: 20};

async function loadAudit() {
  clearMessage(byId('audit-error'));
  try {
    const answer = await api.get(
        '/v1/admin/audit',
        Object.assign({}, auditQuery, {pageToken: auditPager.token}));
    const entries = answer.entries || [];
    replace(
        byId('audit-entries'), dataTable({
          id: 'audit-table',
          caption: 'Audit log (' + (auditQuery.action || 'all actions') +
              '), newest first',
          empty: 'No audit entry matches the filter.',
          rows: entries,
          rowAttrs: (e) => ({dataset: {action: e.action}}),
          columns: [
            {label: 'Time', cell: (e) => fmt.time(e.time), className: 'nowrap'},
            {label: 'Actor', cell: (e) => e.actor},
            {label: 'Action', cell: (e) => e.action, className: 'action'},
            {label: 'Details', cell: (e) => e.details, className: 'wrap'},
          ],
        }));
    auditPager.update(answer.nextPageToken, entries.length);
  } catch (err) {
    showError(byId('audit-error'), err);
  }
}

function reloadAudit() {
  auditPager.reset();
  return loadAudit();
}

async function onAuditFilter(event) {
  event.preventDefault();
  auditQuery = {
    action: byId('audit-action').value,
    limit: limitOf(byId('audit-limit'))
  };
  await busy(byId('audit-apply'), reloadAudit);
}

// ---- Wiring
// -----------------------------------------------------------------------

function init() {
  ledgerPager = new Pager('ledger', loadLedger);
  auditPager = new Pager('audit', loadAudit);
  byId('cap-form').addEventListener('submit', onSetCap);
  byId('create-buyer-form').addEventListener('submit', onCreateBuyer);
  byId('grant-form')
      .addEventListener(
          'submit',
          budgetFormHandler('grant', '/v1/admin/budgets:grant', 'epsilon'));
  byId('set-form')
      .addEventListener(
          'submit',
          budgetFormHandler('set', '/v1/admin/budgets:set', 'granted'));
  byId('ledger-filter').addEventListener('submit', onLedgerFilter);
  byId('audit-filter').addEventListener('submit', onAuditFilter);
  byId('revoke-yes').addEventListener('click', onRevokeYes);
  byId('revoke-no').addEventListener('click', () => {
    const buyerId = state.revoking;
    closeRevoke();
    const button = document.querySelector(
        '#buyers-table button[data-revoke="' + CSS.escape(buyerId) + '"]');
    if (button) button.focus();
  });
  byId('copy-token').addEventListener('click', copyToken);
  byId('hide-token').addEventListener('click', hideToken);
  // Buyers spend through other clients meanwhile: a refresh keeps the
  // filters and starts the listings again at their newest page.
  byId('admin-refresh')
      .addEventListener(
          'click', (event) => busy(event.currentTarget, () => Promise.all([
                     loadDatasets(), loadBuyers(), reloadLedger(), reloadAudit()
                   ])));
}

async function show() {
  byId('admin-view').hidden = false;
  ledgerQuery = {
    buyerId: '',
    datasetId: '',
    limit: limitOf(byId('ledger-limit'))
  };
  auditQuery = {action: '', limit: limitOf(byId('audit-limit'))};
  ledgerPager.reset();
  auditPager.reset();
  await Promise.all([loadDatasets(), loadBuyers(), loadLedger(), loadAudit()]);
}

function reset() {
  state.datasets = [];
  state.buyers = [];
  closeRevoke();
  byId('new-token-box').hidden = true;
  for (const id of ['ledger-prev', 'ledger-next', 'audit-prev', 'audit-next']) {
    byId(id).disabled = true;
  }
  byId('admin-view').hidden = true;
}

window.dpq = window.dpq || {};
window.dpq.admin = {
  init,
  show,
  reset
};
})();
