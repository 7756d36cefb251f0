// The buyer view: datasets, one dataset's public description, the buyer's
// budget on it with a chart of the spend, buying a score (preview first,
// then an explicit confirmation) and the receipts.
(function() {
'use strict';

const {
  h,
  replace,
  byId,
  dataTable,
  definitionList,
  showError,
  clearMessage,
  showStatus,
  busy,
  fillSelect
} = window.dpq.dom;
const api = window.dpq.api;
const fmt = window.dpq.format;
const charts = window.dpq.charts;

// QualityReport is its own RPC; the select offers it next to the measures.
const QUALITY_REPORT = 'QUALITY_REPORT';
const HISTORY_LIMIT = 200;
const RECEIPTS_PAGE = 20;

const state = {
  datasets: [],
  current: null,  // DatasetInfo of the open dataset
  pending: null,  // {release, preview, requestId}: the purchase being confirmed
  purchasing: false,
  receipts: [],
  receiptsToken: '',
  onIdentity: () => {},  // tells app.js the buyer id once the server names it
};

// ---- Datasets --------------------------------------------------------

async function loadDatasets() {
  clearMessage(byId('buyer-datasets-error'));
  replace(
      byId('buyer-datasets'), h('p', {class: 'loading'}, 'Loading datasets…'));
  try {
    state.datasets = await api.getAllPages('/v1/datasets', 'datasets');
    renderDatasets();
  } catch (err) {
    replace(byId('buyer-datasets'));
    showError(byId('buyer-datasets-error'), err);
  }
}

function rowsText(info) {
  if (info.kind === 'DATASET_KIND_GRAPH')
    return fmt.plural(info.nodeCount, 'node', 'nodes');
  if (info.rowCountPublic) return fmt.groupDigits(info.rowCount);
  return 'at most ' + fmt.groupDigits(info.publicMaxRows) +
      ' (exact count not public)';
}

function renderDatasets() {
  const selected = state.current ? state.current.datasetId : '';
  replace(
      byId('buyer-datasets'), dataTable({
        id: 'datasets-table',
        caption: 'Datasets (' + state.datasets.length + ')',
        empty: 'No dataset is registered yet.',
        rows: state.datasets,
        rowAttrs: (d) => ({
          dataset: {datasetId: d.datasetId},
          class: d.datasetId === selected ? 'selected' : null
        }),
        columns: [
          {
            label: 'Dataset',
            cell: (d) =>
                h('button', {
                  type: 'button',
                  class: 'link-button',
                  'aria-current': d.datasetId === selected ? 'true' : null,
                  'aria-label': 'Open dataset ' + d.datasetId,
                  on: {click: () => openDataset(d.datasetId)}
                },
                  d.datasetId)
          },
          {label: 'Description', cell: (d) => d.description, className: 'wrap'},
          {label: 'Kind', cell: (d) => fmt.kind(d.kind)},
          {
            label: 'Version',
            cell: (d) => fmt.groupDigits(d.version),
            numeric: true
          },
          {label: 'Rows', cell: rowsText},
          {label: 'Sold here', cell: (d) => offeredText(d), className: 'wrap'},
        ],
      }));
}

function offeredText(info) {
  const measures =
      (info.supportedMeasures || []).map((m) => fmt.measureInfo(m).short);
  if (sellsReport(info)) measures.push('quality report');
  return measures.length ? measures.join(', ') : 'nothing in this console';
}

function sellsReport(info) {
  return (info.supportedReleases || []).includes('QualityReport');
}

// ---- One dataset -------------------------------------------------------

async function openDataset(datasetId) {
  state.current = null;
  state.receipts = [];
  state.receiptsToken = '';
  cancelPending();
  byId('answer-box').hidden = true;
  replace(byId('answer'));
  replace(byId('details-name'), datasetId);
  byId('buyer-dataset').hidden = false;
  // The listing already holds the public metadata: draw it at once, then
  // refresh it from DescribeDataset.
  const info = state.datasets.find((d) => d.datasetId === datasetId);
  state.current = info || {datasetId};
  renderDatasets();
  if (info) {
    renderDetails(info);
    fillBuyOptions(info);
  } else {
    replace(byId('details'));
  }
  byId('details-title').focus();
  await Promise.all(
      [loadDetails(datasetId), loadBudget(), loadReceipts(false)]);
}

async function loadDetails(datasetId) {
  clearMessage(byId('details-error'));
  try {
    const answer = await api.get('/v1/datasets/' + api.seg(datasetId));
    const info = answer.dataset || {};
    if (!state.current || state.current.datasetId !== datasetId) return;
    state.current = info;
    renderDetails(info);
    fillBuyOptions(info);
  } catch (err) {
    replace(byId('details'));
    showError(byId('details-error'), err);
  }
}

function renderDetails(info) {
  const k = Number(info.chargeMultiplier || 1);
  const graph = info.kind === 'DATASET_KIND_GRAPH';
  // Row bounds and repairs are facts of tables; a graph's public size is
  // its declared node count.
  const sizeFacts = graph ? [['Nodes', fmt.groupDigits(info.nodeCount)]] : [
    ['Public maximum of rows (N)', fmt.groupDigits(info.publicMaxRows)],
    [
      'Row count',
      info.rowCountPublic ? fmt.groupDigits(info.rowCount) : 'not public'
    ],
    [
      'Exact minimal repair',
      info.exactRepair ? 'yes (I_R is released from the exact cover)' : 'no'
    ],
  ];
  const facts = definitionList([
    ['Kind', fmt.kind(info.kind)],
    ['Version', fmt.groupDigits(info.version)],
    ['Registered', fmt.time(info.registeredAt)],
    ['Privacy unit', info.neighbouring || 'one row added or removed'],
    [
      'Charge per ε requested',
      k > 1 ? k + ' × ε for every release but DP cuboids ' +
              '(group privacy under the public exact cuboids)' :
              '1 × ε: you are charged the ε you request'
    ],
    ...sizeFacts,
    ['Releases', (info.supportedReleases || []).join(', ') || 'none'],
  ]);
  replace(
      byId('details'),
      info.description ?
          h('p', {class: 'description', id: 'details-description'},
            info.description) :
          null,
      facts, columnsBlock(info.columns || []),
      constraintsBlock(info.constraints || []),
      dimensionsBlock(info.cubeDimensions || []),
      cuboidsBlock(info.publicCuboids || []));
}

function columnsBlock(columns) {
  if (columns.length === 0) return null;
  return h(
      'details', {class: 'more', open: true},
      h('summary', null, 'Columns (' + columns.length + ')'),
      h('ul', {class: 'chips'},
        columns.map(
            (c) =>
                h('li', null, h('span', {class: 'chip-name'}, c.name), ' ',
                  h('span', {class: 'chip-type'}, fmt.columnType(c.type))))));
}

function constraintsBlock(constraints) {
  if (constraints.length === 0) return null;
  return h(
      'details', {class: 'more'},
      h('summary', null, 'Integrity constraints (' + constraints.length + ')'),
      h('ol', {class: 'constraints'},
        constraints.map((c) => h('li', null, h('code', null, c)))));
}

function dimensionsBlock(dimensions) {
  if (dimensions.length === 0) return null;
  return h(
      'details', {class: 'more'},
      h('summary', null, 'Data-cube dimensions (' + dimensions.length + ')'),
      h('ul', {class: 'plain'},
        dimensions.map(
            (d) =>
                h('li', null, h('strong', null, d.column), ': ',
                  (d.labels || []).join(' · ')))));
}

function cuboidsBlock(cuboids) {
  if (cuboids.length === 0) return null;
  return h(
      'details', {class: 'more'},
      h('summary', null, 'Public exact cuboids (' + cuboids.length + ')'),
      cuboids.map((cuboid, index) => {
        const dims = cuboid.dimensions || [];
        return dataTable({
          caption: 'Cuboid ' + (index + 1) + ': ' +
              (dims.join(', ') || 'total count'),
          rows: cuboid.cells || [],
          columns:
              dims.map(
                      (dim, i) => (
                          {label: dim, cell: (cell) => (cell.values || [])[i]}))
                  .concat([{
                    label: 'Count',
                    numeric: true,
                    cell: (cell) => fmt.decimal(cell.count)
                  }]),
        });
      }));
}

// ---- Budget and the spend chart ---------------------------------------

async function loadBudget() {
  const datasetId = state.current && state.current.datasetId;
  if (!datasetId) return;
  clearMessage(byId('budget-error'));
  try {
    const answer = await api.get(
        '/v1/datasets/' + api.seg(datasetId) + '/budget',
        {includeHistory: 'true', historyLimit: HISTORY_LIMIT});
    if (!state.current || state.current.datasetId !== datasetId) return;
    const budget =
        (answer.budgets || []).find((b) => b.datasetId === datasetId) || null;
    if (budget && budget.buyerId) state.onIdentity(budget.buyerId);
    renderBudget(budget);
    renderSpend(
        budget,
        (answer.history || []).filter((e) => e.datasetId === datasetId));
  } catch (err) {
    showError(byId('budget-error'), err);
  }
}

function renderBudget(budget) {
  if (!budget) {
    replace(
        byId('budget'),
        h('p', {id: 'budget-none'},
          'You have no budget on this dataset yet: ask the admin for a grant.'));
    return;
  }
  replace(
      byId('budget'),
      h('p', {class: 'budget-headline'}, 'ε ',
        h('strong', {id: 'budget-remaining'}, fmt.units(budget.remainingUnits)),
        ' remaining'),
      definitionList(
          [
            [
              'Granted (ε)', fmt.units(budget.grantedUnits),
              {id: 'budget-granted'}
            ],
            ['Spent (ε)', fmt.units(budget.spentUnits), {id: 'budget-spent'}],
            [
              'Reserved (ε)', fmt.units(budget.reservedUnits),
              {id: 'budget-reserved'}
            ],
          ],
          {class: 'facts budget-facts'}));
}

// Entries that hold budget: committed and charged ones count as spent,
// a reservation in flight as held; a refund gave its epsilon back.
function holdsBudget(entry) {
  return entry.state !== 'LEDGER_ENTRY_STATE_REFUNDED' &&
      entry.state !== 'LEDGER_ENTRY_STATE_UNSPECIFIED';
}

function renderSpend(budget, history) {
  // Without a grant there is nothing to chart.
  byId('spend-block').hidden = !budget;
  if (!budget) {
    replace(byId('spend-chart'));
    replace(byId('spend-summary'));
    return;
  }
  const points = spendPoints(budget, history);
  const summary =
      spendSummary(budget, points.length, history.length >= HISTORY_LIMIT);
  charts.stepChart(byId('spend-chart'), {
    title: 'Cumulative ε spent on ' + state.current.datasetId,
    desc: summary,
    points,
    ceiling: fmt.unitsToNumber(budget.grantedUnits),
    ceilingLabel: 'granted ε ' + fmt.units(budget.grantedUnits),
  });
  replace(byId('spend-summary'), summary);
}

// The running total after each charge, oldest first. The history is
// capped at HISTORY_LIMIT entries, so the total starts from what the
// budget says was spent before the oldest listed entry.
function spendPoints(budget, history) {
  const entries = history.filter(holdsBudget)
                      .map((e) => ({entry: e, ms: fmt.timeMillis(e.createdAt)}))
                      .filter((e) => e.ms !== null)
                      .sort((a, b) => a.ms - b.ms);
  let total =
      fmt.toBigInt(budget.spentUnits) + fmt.toBigInt(budget.reservedUnits);
  for (const e of entries) total -= fmt.toBigInt(e.entry.epsilonUnits);
  if (total < 0n) total = 0n;
  return entries.map((e) => {
    total += fmt.toBigInt(e.entry.epsilonUnits);
    return {
      x: e.ms,
      y: fmt.unitsToNumber(total),
      label: fmt.time(e.entry.createdAt) + ': ' + e.entry.operation + ', ε ' +
          fmt.units(e.entry.epsilonUnits) + ' (total ' + fmt.units(total) + ')'
    };
  });
}

function spendSummary(budget, charges, capped) {
  let text = 'You have spent ε ' + fmt.units(budget.spentUnits) + ' of ε ' +
      fmt.units(budget.grantedUnits) + ' granted, in ' +
      fmt.plural(charges, 'charge', 'charges') +
      (capped ? ' (the latest ' + HISTORY_LIMIT + ' shown)' : '') + '; ε ' +
      fmt.units(budget.remainingUnits) + ' remain.';
  if (fmt.toBigInt(budget.reservedUnits) > 0n) {
    text += ' ε ' + fmt.units(budget.reservedUnits) +
        ' is held by releases in progress.';
  }
  return text;
}

// ---- Buying: form, preview, confirmation --------------------------------

function fillBuyOptions(info) {
  const options =
      (info.supportedMeasures || [])
          .filter((m) => fmt.MEASURES[m])
          .map((m) => ({value: m, label: fmt.measureInfo(m).title}));
  if (sellsReport(info)) {
    options.push(
        {value: QUALITY_REPORT, label: 'Quality report (I_MI, I_P, I_R)'});
  }
  const select = byId('buy-measure');
  fillSelect(select, options);
  const form = byId('buy-form');
  const none = options.length === 0;
  for (const control of form.elements) control.disabled = none;
  if (none) {
    showStatus(
        byId('buy-status'),
        'This dataset sells no score this console offers ' +
            '(its releases: ' +
            ((info.supportedReleases || []).join(', ') || 'none') + ').');
  } else {
    clearMessage(byId('buy-status'));
  }
  updateMethodFields();
}

// Only the fields of the chosen release are shown (and sent): the server
// refuses a method set with I_R and a repair method set with I_MI or I_P.
function updateMethodFields() {
  const choice = byId('buy-measure').value;
  byId('buy-method-field').hidden =
      !(choice === 'MEASURE_MI' || choice === 'MEASURE_P' ||
        choice === QUALITY_REPORT);
  byId('buy-repair-field').hidden =
      !(choice === 'MEASURE_R' || choice === QUALITY_REPORT);
  byId('buy-rowcount-field').hidden = choice !== QUALITY_REPORT;
}

// The release as the form describes it: the route and the request body
// (without request id), plus the same body for the preview.
function releaseFromForm() {
  const datasetId = state.current.datasetId;
  const choice = byId('buy-measure').value;
  const epsilon = Number(byId('buy-epsilon').value);
  if (!byId('buy-epsilon').value || !Number.isFinite(epsilon) || epsilon <= 0) {
    throw new Error(
        'Enter the ε to spend: a number above 0 (at least 0.000001).');
  }
  const body = {epsilon};
  const method = byId('buy-method').value;
  const repair = byId('buy-repair').value;
  if (choice === QUALITY_REPORT) {
    if (method) body.method = method;
    if (repair) body.repairMethod = repair;
    if (byId('buy-rowcount').checked) body.includeRowCount = true;
    return {
      kind: 'report',
      datasetId,
      body,
      previewKey: 'qualityReport',
      path: '/v1/datasets/' + api.seg(datasetId) + ':qualityReport'
    };
  }
  if (!fmt.MEASURES[choice]) throw new Error('Choose what to buy.');
  body.measure = choice;
  if (choice !== 'MEASURE_R' && method) body.method = method;
  if (choice === 'MEASURE_R' && repair) body.repairMethod = repair;
  return {
    kind: 'measure',
    datasetId,
    body,
    previewKey: 'measureInconsistency',
    path: '/v1/datasets/' + api.seg(datasetId) + ':measure'
  };
}

async function onPreview(event) {
  event.preventDefault();
  if (state.purchasing || !state.current) return;
  clearMessage(byId('buy-error'));
  clearMessage(byId('buy-status'));
  // A purchase that failed on the way may have been charged: previewing
  // the same release again keeps its request id, so confirming it is a
  // retry (the server replays), not a second purchase.
  const unresolved =
      state.pending && state.pending.requestId ? state.pending : null;
  cancelPending();
  let release;
  try {
    release = releaseFromForm();
  } catch (err) {
    showError(byId('buy-error'), err);
    byId('buy-epsilon').focus();
    return;
  }
  const request = {};
  request[release.previewKey] =
      Object.assign({datasetId: release.datasetId}, release.body);
  await busy(byId('preview-button'), async () => {
    try {
      const preview = await api.post('/v1/costs:preview', request);
      const same = unresolved &&
          JSON.stringify(unresolved.release) === JSON.stringify(release);
      state.pending = {
        release,
        preview,
        requestId: same ? unresolved.requestId : ''
      };
      renderPreview(preview);
      if (same) markRetry();
    } catch (err) {
      showError(byId('buy-error'), err);
    }
  });
}

function renderPreview(preview) {
  const charged = fmt.toBigInt(preview.epsilonChargedUnits);
  const remaining = fmt.toBigInt(preview.remainingBudgetUnits);
  const k = Number(preview.chargeMultiplier || 1);
  const basis = preview.chargeBasis ||
      (k > 1 ? k + ' × the ε you requested' : 'the ε you requested');
  replace(
      byId('preview-body'),
      definitionList(
          [
            [
              'You would be charged', 'ε ' + fmt.units(charged),
              {id: 'preview-charge'}
            ],
            ['Charge multiplier (k_Q)', String(k), {id: 'preview-multiplier'}],
            ['How the charge follows', basis, {id: 'preview-basis'}],
            [
              'Your remaining budget now', 'ε ' + fmt.units(remaining),
              {id: 'preview-remaining'}
            ],
            [
              'Remaining after the purchase',
              preview.fitsBudget ? 'ε ' + fmt.units(remaining - charged) : '—',
              {id: 'preview-after'}
            ],
            [
              'Fits your budget', preview.fitsBudget ? 'yes' : 'no',
              {id: 'preview-fits'}
            ],
          ],
          {class: 'facts preview-facts'}),
      preview.fitsBudget ?
          null :
          h('p', {class: 'warning', id: 'preview-warning'},
            'This charge does not fit your remaining budget: lower ε or ask the admin for more ' +
                'budget.'),
      noiseBlock(preview.noise || []),
      h('p', {class: 'hint'},
        'Previewing was free. The dataset\'s cap over all buyers may ' +
            'still refuse the purchase; then nothing is charged.'));
  const confirm = byId('confirm-purchase');
  confirm.textContent = 'Confirm purchase of ε = ' + fmt.units(charged);
  confirm.disabled = !preview.fitsBudget;
  byId('preview').hidden = false;
  byId('preview-title').focus();
}

// How loud the noise will be, from public inputs only: the scale grows
// with the degree bound theta the method picks from the data.
function noiseBlock(noise) {
  if (noise.length === 0) return null;
  return h(
      'details', {class: 'more'}, h('summary', null, 'How much noise'),
      h('ul', {class: 'plain'}, noise.map((n) => {
        const info = fmt.measureInfo(n.measure);
        const perTheta = Number(n.noiseScalePerTheta || 0);
        const atZero = Number(n.noiseScaleAtZero || 0);
        const scale = perTheta > 0 ?
            fmt.decimal(perTheta) + ' × θ + ' + fmt.decimal(atZero) +
                ' (θ: the degree bound the method chooses)' :
            fmt.decimal(atZero);
        return h(
            'li', null, h('strong', null, info.short), ': method ',
            n.method || 'default',
            ', ε ' + fmt.decimal(n.releaseEpsilon) +
                ' buys the count; discrete Laplace noise of scale ' + scale +
                '.');
      })));
}

function markRetry() {
  const confirm = byId('confirm-purchase');
  confirm.textContent = 'Retry the same purchase (no second charge)';
  confirm.disabled = false;
}

function cancelPending() {
  state.pending = null;
  byId('preview').hidden = true;
  replace(byId('preview-body'));
}

// A changed form no longer matches the preview: confirming must buy
// exactly what was previewed, so the preview goes.
function onFormChanged() {
  if (state.purchasing) return;
  if (state.pending && !state.pending.requestId) cancelPending();
  updateMethodFields();
}

async function onConfirm() {
  const pending = state.pending;
  if (!pending || state.purchasing) return;
  // One request id per confirmed purchase: a retry after a failure sends
  // the same id, so the server replays instead of charging twice.
  if (!pending.requestId) pending.requestId = api.newRequestId();
  clearMessage(byId('buy-error'));
  state.purchasing = true;
  showStatus(byId('buy-status'), 'Buying…');
  const confirm = byId('confirm-purchase');
  try {
    await busy(confirm, () => purchase(pending));
  } finally {
    state.purchasing = false;
  }
  await Promise.all([loadBudget(), loadReceipts(false)]);
}

async function purchase(pending) {
  const body =
      Object.assign({}, pending.release.body, {requestId: pending.requestId});
  try {
    const answer = await api.post(pending.release.path, body);
    if (state.pending === pending) cancelPending();
    if (!state.current ||
        state.current.datasetId !== pending.release.datasetId) {
      // The buyer opened another dataset meanwhile: the answer stays in
      // the receipts of the one it was bought on.
      showStatus(
          byId('buy-status'),
          'Your purchase on ' + pending.release.datasetId +
              ' is complete: its answer is in that dataset\'s receipts.');
      return;
    }
    renderAnswer(pending.release.kind, answer);
    showStatus(
        byId('buy-status'),
        answer.replayed ? 'Recorded answer returned; nothing was charged.' :
                          'Purchase complete: charged ε ' +
                fmt.units(answer.epsilonChargedUnits) + '.');
  } catch (err) {
    if (err.stale) return;
    showError(byId('buy-error'), err);
    clearMessage(byId('buy-status'));
    if (err.retryable && state.pending === pending) {
      markRetry();
    } else if (state.pending === pending) {
      cancelPending();
    }
  }
}

// ---- The answer in words -------------------------------------------------

function renderAnswer(kind, answer) {
  const results =
      kind === 'report' ? (answer.results || []) : [answer.result || {}];
  const blocks = results.map((r) => {
    const s = fmt.measureSentences(r);
    return h(
        'div', {class: 'answer-measure'},
        h('p', {class: 'answer-headline'}, s.headline + ' ' + s.interval),
        h('p', {class: 'answer-how'}, s.how));
  });
  if (kind === 'report' && answer.rowCount)
    blocks.push(rowCountBlock(answer.rowCount));
  const charge = answer.replayed ?
      'This is the recorded answer of an earlier identical request: nothing was charged now.' :
      'Charged ε ' + fmt.units(answer.epsilonChargedUnits) + '; ε ' +
          fmt.units(answer.remainingBudgetUnits) + ' remain on this dataset.';
  replace(
      byId('answer'),
      kind === 'report' ? h('p', {class: 'answer-kind'},
                            'Quality report of ' + state.current.datasetId) :
                          null,
      blocks,
      h('p', {class: 'answer-charge'}, charge, ' ',
        h('span', {class: 'request-id'}, 'Request id ',
          h('code', {id: 'answer-request-id'}, answer.requestId || ''))));
  byId('answer-box').hidden = false;
  byId('answer-title').focus();
}

function rowCountBlock(rowCount) {
  const text = rowCount.exact ?
      'The table has ' + fmt.groupDigits(rowCount.value) +
          ' rows (exact: the owner published the count).' :
      'The table has about ' + fmt.groupDigits(rowCount.value) +
          ' rows; with 95% probability between ' +
          fmt.groupDigits(rowCount.lower95) + ' and ' +
          fmt.groupDigits(rowCount.upper95) + ' (ε ' +
          fmt.units(rowCount.epsilonUnits) + ').';
  return h(
      'div', {class: 'answer-measure'},
      h('p', {class: 'answer-headline'}, text));
}

// ---- Receipts -------------------------------------------------------------

async function loadReceipts(older) {
  const datasetId = state.current && state.current.datasetId;
  if (!datasetId) return;
  clearMessage(byId('receipts-error'));
  try {
    const answer = await api.get(
        '/v1/datasets/' + api.seg(datasetId) + '/receipts',
        {pageSize: RECEIPTS_PAGE, pageToken: older ? state.receiptsToken : ''});
    if (!state.current || state.current.datasetId !== datasetId) return;
    state.receipts =
        (older ? state.receipts : []).concat(answer.receipts || []);
    state.receiptsToken = answer.nextPageToken || '';
    renderReceipts();
  } catch (err) {
    showError(byId('receipts-error'), err);
  }
}

function renderReceipts() {
  const newest = state.receipts.length ? state.receipts[0].entry : null;
  if (newest && newest.buyerId) state.onIdentity(newest.buyerId);
  replace(byId('receipts'), dataTable({
            id: 'receipts-table',
            caption: 'Receipts on ' + state.current.datasetId + ' (' +
                state.receipts.length +
                (state.receiptsToken ? ' shown, more older' : '') + ')',
            empty: 'No purchases on this dataset yet.',
            rows: state.receipts,
            rowAttrs: (r) =>
                ({dataset: {requestId: (r.entry || {}).requestId || ''}}),
            columns: [
              {
                label: 'Entry',
                cell: (r) => '#' + ((r.entry || {}).entryId || ''),
                numeric: true
              },
              {
                label: 'Time',
                cell: (r) => fmt.time((r.entry || {}).createdAt),
                className: 'nowrap'
              },
              {
                label: 'Release',
                cell: (r) => (r.entry || {}).operation,
                className: 'wrap'
              },
              {
                label: 'Charged ε',
                cell: (r) => fmt.units((r.entry || {}).epsilonUnits),
                numeric: true
              },
              {label: 'State', cell: (r) => fmt.state((r.entry || {}).state)},
              {label: 'Answer', cell: receiptAnswer, className: 'wrap'},
              {
                label: 'Request id',
                className: 'mono',
                cell: (r) => h('code', null, (r.entry || {}).requestId)
              },
            ],
          }));
  byId('receipts-more').hidden = !state.receiptsToken;
}

function receiptAnswer(receipt) {
  if (receipt.measureInconsistency) {
    return fmt.measureShort(receipt.measureInconsistency.result || {});
  }
  if (receipt.qualityReport) {
    return (receipt.qualityReport.results || [])
        .map(fmt.measureShort)
        .join('; ');
  }
  if (receipt.releaseCuboids) {
    return fmt.plural(
               (receipt.releaseCuboids.cuboids || []).length, 'DP cuboid',
               'DP cuboids') +
        ' (' + receipt.releaseCuboids.strategy + ')';
  }
  if (receipt.trainDecisionTree)
    return 'Decision tree ' + receipt.trainDecisionTree.treeText;
  if (receipt.selectInfluentialNodes) {
    return 'Nodes ' + (receipt.selectInfluentialNodes.nodes || []).join(', ');
  }
  const entryState = (receipt.entry || {}).state;
  if (entryState === 'LEDGER_ENTRY_STATE_CHARGED') {
    return 'No answer recorded: a retry with the same request id returns it, ' +
        'without a second charge.';
  }
  if (entryState === 'LEDGER_ENTRY_STATE_REFUNDED') {
    return 'Nothing was released; the ε was given back.';
  }
  return 'In progress';
}

// ---- Wiring -----------------------------------------------------------------

function init(options) {
  state.onIdentity = options.onIdentity || state.onIdentity;
  const form = byId('buy-form');
  form.addEventListener('submit', onPreview);
  form.addEventListener('input', onFormChanged);
  form.addEventListener('change', onFormChanged);
  byId('confirm-purchase').addEventListener('click', onConfirm);
  byId('cancel-purchase').addEventListener('click', () => {
    cancelPending();
    showStatus(byId('buy-status'), 'Purchase cancelled: nothing was charged.');
    byId('preview-button').focus();
  });
  byId('receipts-more')
      .addEventListener(
          'click',
          (event) => busy(event.currentTarget, () => loadReceipts(true)));
  byId('buyer-refresh')
      .addEventListener('click', (event) => busy(event.currentTarget, refresh));
}

// Everything the view shows, read again (another tab or client may have
// spent budget meanwhile).
async function refresh() {
  const open = state.current ? state.current.datasetId : '';
  await loadDatasets();
  if (open && state.current) {
    await Promise.all([loadDetails(open), loadBudget(), loadReceipts(false)]);
  }
}

async function show() {
  byId('buyer-view').hidden = false;
  byId('buyer-dataset').hidden = true;
  await loadDatasets();
}

function reset() {
  state.datasets = [];
  state.current = null;
  state.pending = null;
  state.purchasing = false;
  state.receipts = [];
  state.receiptsToken = '';
  byId('preview').hidden = true;
  byId('answer-box').hidden = true;
  byId('buyer-dataset').hidden = true;
  byId('receipts-more').hidden = true;
  byId('buyer-view').hidden = true;
}

window.dpq = window.dpq || {};
window.dpq.buyer = {
  init,
  show,
  reset
};
})();
