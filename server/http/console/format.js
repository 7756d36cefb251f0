// Numbers, times and enum names as people read them, and the answers of
// the inconsistency measures in words.
(function() {
'use strict';

// The ledger counts epsilon exactly in units of 10^-12 (ledger.proto);
// the *_units fields are int64 JSON strings. BigInt keeps them exact, so
// 5 - 1 shows as 4, never 3.9999999999999996.
const UNITS_PER_EPSILON = 1000000000000n;

function toBigInt(value) {
  if (typeof value === 'bigint') return value;
  if (value === undefined || value === null || value === '') return 0n;
  try {
    return BigInt(String(value));
  } catch (e) {
    return 0n;
  }
}

// "15600000000000" -> "15.6"; "0" -> "0".
function units(value) {
  const n = toBigInt(value);
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const whole = abs / UNITS_PER_EPSILON;
  const fraction =
      (abs % UNITS_PER_EPSILON).toString().padStart(12, '0').replace(/0+$/, '');
  return (negative ? '-' : '') + groupDigits(whole.toString()) +
      (fraction ? '.' + fraction : '');
}

// Units as a JS number of epsilon, for charts only (never for display).
function unitsToNumber(value) {
  return Number(toBigInt(value)) / 1e12;
}

// "1234567" -> "1,234,567"; accepts int64 strings and numbers.
function groupDigits(value) {
  const text = String(value === undefined || value === null ? 0 : value);
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  if (!match) return text;
  return match[1] + match[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',') +
      (match[3] || '');
}

// A double from the server (a value with no units twin), shortened.
function decimal(value) {
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return String(Number(n.toPrecision(12)));
}

// RFC 3339 "2026-11-22T21:31:29.412933Z" -> "2026-11-22 21:31:29 UTC".
// Shown in UTC, as the server writes it, so every reader sees one time.
function time(value) {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
}

function timeMillis(value) {
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

// Enum names of dataset.proto / ledger.proto.
const MEASURES = {
  MEASURE_MI: {
    short: 'I_MI',
    noun: 'conflicting pairs',
    title: 'I_MI (conflicting pairs)'
  },
  MEASURE_P: {
    short: 'I_P',
    noun: 'tuples in conflicts',
    title: 'I_P (tuples in conflicts)'
  },
  MEASURE_R: {
    short: 'I_R',
    noun: 'tuple deletions in a minimal repair',
    title: 'I_R (minimal repair deletions)'
  },
};

function measureInfo(name) {
  return MEASURES[name] || {short: String(name), noun: '', title: String(name)};
}

function stripPrefix(value, prefix) {
  const text = String(value || '');
  if (!text.startsWith(prefix)) return text;
  return text.slice(prefix.length).toLowerCase().replace(/_/g, ' ');
}

function kind(value) {
  const name = stripPrefix(value || 'DATASET_KIND_TABLE', 'DATASET_KIND_');
  return name === 'unspecified' ? 'table' : name;
}

function columnType(value) {
  return stripPrefix(value, 'COLUMN_TYPE_');
}

const STATES = {
  LEDGER_ENTRY_STATE_RESERVED: 'reserved (in progress)',
  LEDGER_ENTRY_STATE_COMMITTED: 'committed',
  LEDGER_ENTRY_STATE_REFUNDED: 'refunded',
  LEDGER_ENTRY_STATE_CHARGED: 'charged, no answer recorded',
};

function state(value) {
  return STATES[value] || stripPrefix(value, 'LEDGER_ENTRY_STATE_');
}

function plural(count, one, many) {
  return groupDigits(count) + ' ' + (String(count) === '1' ? one : many);
}

// One MeasureResult in words (buyer_service.proto): the value, the 95%
// interval that covers noise and undercount, and how it was computed.
function measureSentences(result) {
  const info = measureInfo(result.measure);
  const lower = groupDigits(result.lower95);
  const upper = groupDigits(result.upper95);
  const headline = info.short + ' is about ' + groupDigits(result.value) + ' ' +
      info.noun + '.';
  const interval = result.upperProved ?
      'With 95% probability the true value lies between ' + lower + ' and ' +
          upper + '.' :
      'With 95% probability the true value is at least ' + lower +
          '; nothing bounds the possible undercount, so the upper end ' +
          upper + ' is only the public maximum.';
  return {headline, interval, how: howComputed(result)};
}

function howComputed(result) {
  const parts = ['method ' + (result.method || 'default')];
  if (Number(result.theta) > 0) parts.push('θ = ' + groupDigits(result.theta));
  parts.push('ε = ' + units(result.epsilonUnits) + ' spent on this measure');
  let estimate = '';
  if (result.estimate === 'ESTIMATE_LOWER_BOUND') {
    estimate =
        ' The value estimates a lower bound of the measure (it may undercount, ' +
        'never overcount apart from the noise); the interval includes that.';
  } else if (result.estimate === 'ESTIMATE_UPPER_BOUND') {
    estimate =
        ' The value estimates an upper bound of the measure; the interval includes that.';
  }
  const noise = ' The noise alone is at most ±' + groupDigits(result.bound95) +
      ' with 95% probability.';
  let degree = '';
  if (toBigInt(result.degreeUpper) > 0n) {
    degree = ' No row has more than ' + groupDigits(result.degreeUpper) +
        ' conflicts (a DP bound that holds with probability at least 99.25%).';
  }
  return '(' + parts.join(', ') + '.)' + estimate + noise + degree;
}

// A one-line summary of a measure, for tables.
function measureShort(result) {
  return measureInfo(result.measure).short + ' ≈ ' + groupDigits(result.value) +
      ' (95%: ' + groupDigits(result.lower95) + ' to ' +
      groupDigits(result.upper95) +
      (result.upperProved ? '' : ', upper end unproved') + ')';
}

window.dpq = window.dpq || {};
window.dpq.format = {
  units,
  unitsToNumber,
  toBigInt,
  groupDigits,
  decimal,
  time,
  timeMillis,
  measureInfo,
  kind,
  columnType,
  state,
  plural,
  measureSentences,
  measureShort,
  MEASURES,
};
})();
