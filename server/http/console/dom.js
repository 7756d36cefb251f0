// DOM helpers of the dpq console. Everything the server sends is
// attacker-controlled (dataset descriptions, ids, column names, error
// messages), so this file is the only place that creates elements, and it
// only ever puts text into them as text nodes or element properties: no
// string is ever parsed as markup.
(function() {
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

// Appends children: strings and numbers become text nodes, arrays are
// flattened, null / undefined / false are skipped.
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) {
      append(parent, child);
    } else if (child instanceof Node) {
      parent.appendChild(child);
    } else {
      parent.appendChild(document.createTextNode(String(child)));
    }
  }
  return parent;
}

// Sets attributes of a new element. `class` and `text` are shortcuts,
// `on` maps event names to listeners, `dataset` copies data-* values;
// anything else goes through setAttribute. Handler attributes and inline
// styles are refused: the page's Content-Security-Policy would block
// them anyway, and styling belongs in app.css.
function setAttributes(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'style' || /^on./i.test(key))
      throw new Error('attribute not allowed: ' + key);
    if (key === 'class') {
      el.setAttribute('class', value);
    } else if (key === 'text') {
      el.textContent = String(value);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key === 'on') {
      for (const [event, listener] of Object.entries(value))
        el.addEventListener(event, listener);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

// h('p', {class: 'note'}, 'text', child, ...): a new HTML element.
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttributes(el, attrs);
  return append(el, children);
}

// svg('rect', {x: 0, ...}): a new SVG element (charts.js).
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttributes(el, attrs);
  return append(el, children);
}

// Removes every child of el and appends the new ones.
function replace(el, ...children) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return append(el, children);
}

function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error('missing element #' + id);
  return el;
}

// A unique id for aria-labelledby / aria-describedby links.
let idCounter = 0;
function uid(prefix) {
  idCounter += 1;
  return (prefix || 'id') + '-' + idCounter;
}

// A table inside a horizontally scrolling, keyboard-focusable region, so
// wide tables never widen the page on a phone.
//   columns: [{label, cell(row) -> string | Node, numeric?, className?}]
//   rows:    the data rows
//   rowAttrs(row): optional attributes of each <tr>
function dataTable({caption, columns, rows, empty, rowAttrs, id}) {
  const captionId = uid('caption');
  const headRow = h(
      'tr', null,
      columns.map(
          (c) => h(
              'th', {scope: 'col', class: c.numeric ? 'num' : null}, c.label)));
  const body = h('tbody');
  // An empty table keeps its caption and headers and says so in one row.
  if (rows.length === 0 && empty) {
    body.appendChild(h(
        'tr', {class: 'empty-row'}, h('td', {colspan: columns.length}, empty)));
  }
  for (const row of rows) {
    const tr = h('tr', rowAttrs ? rowAttrs(row) : null);
    columns.forEach((c, index) => {
      const content = c.cell(row);
      const classes =
          [c.numeric ? 'num' : '', c.className || ''].join(' ').trim();
      // The first column names the row: a row header for screen readers.
      const tag = index === 0 ? 'th' : 'td';
      tr.appendChild(
          h(tag, {scope: index === 0 ? 'row' : null, class: classes || null},
            content));
    });
    body.appendChild(tr);
  }
  const table =
      h('table', {id: id || null}, h('caption', {id: captionId}, caption),
        h('thead', null, headRow), body);
  return h(
      'div', {
        class: 'table-wrap',
        role: 'region',
        tabindex: '0',
        'aria-labelledby': captionId
      },
      table);
}

// A definition list from [term, value] pairs; a value may be a Node.
function definitionList(pairs, attrs) {
  const dl = h('dl', Object.assign({class: 'facts'}, attrs || {}));
  for (const [term, value, ddAttrs] of pairs) {
    if (value === null || value === undefined) continue;
    dl.appendChild(
        h('div', {class: 'fact'}, h('dt', null, term),
          h('dd', ddAttrs || null, value)));
  }
  return dl;
}

// Shows an error in a role="alert" element (as text). Answers of a
// signed-out session are dropped silently (see api.js).
function showError(alertEl, err) {
  if (err && err.stale) return;
  const message = (err && err.message) ? err.message : String(err);
  const parts = [message];
  if (err && err.reason) parts.push(' (' + err.reason + ')');
  replace(alertEl, h('span', {class: 'error-text'}, parts.join('')));
}

function clearMessage(el) {
  replace(el);
}

// A short text in an aria-live status region.
function showStatus(statusEl, text) {
  replace(statusEl, text);
}

// Disables a button while an async action runs, so a double click cannot
// send a request twice.
async function busy(button, action) {
  const wasDisabled = button.disabled;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    return await action();
  } finally {
    button.disabled = wasDisabled;
    button.removeAttribute('aria-busy');
  }
}

// Replaces the options of a <select>, keeping the chosen value if it is
// still offered. options: [{value, label}].
function fillSelect(select, options) {
  const previous = select.value;
  replace(select, options.map((o) => {
    const option = h('option', null, o.label);
    option.value = o.value;
    return option;
  }));
  if (options.some((o) => o.value === previous)) select.value = previous;
}

window.dpq = window.dpq || {};
window.dpq.dom = {
  h,
  svg,
  append,
  replace,
  byId,
  uid,
  dataTable,
  definitionList,
  showError,
  clearMessage,
  showStatus,
  busy,
  fillSelect,
};
})();
