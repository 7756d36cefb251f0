// Two small SVG charts built with createElementNS (no library): the
// buyer's cumulative spend over time and the admin's epsilon spent per
// dataset. Each chart is an image with a <title> and a <desc>; the pages
// put a text summary next to it, so nothing is only in the picture.
(function() {
'use strict';

const {svg, replace, uid} = window.dpq.dom;

// Charts are drawn at their container's pixel width (not scaled by a
// viewBox), so the labels keep a readable size on a phone; a resize
// draws them again.
const drawn = new Map();
let resizeTimer = null;

function remember(container, draw) {
  drawn.set(container, {draw, width: container.clientWidth});
  draw();
}

window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    for (const [container, entry] of drawn) {
      if (!container.isConnected) {
        drawn.delete(container);
      } else if (container.clientWidth !== entry.width) {
        entry.width = container.clientWidth;
        entry.draw();
      }
    }
  }, 150);
});

function chartWidth(container) {
  return Math.max(280, Math.floor(container.clientWidth || 600));
}

// The <svg> root with its accessible name and description.
function chartRoot(width, height, title, desc) {
  const titleId = uid('chart-title');
  const descId = uid('chart-desc');
  return svg(
      'svg', {
        class: 'chart',
        width,
        height,
        viewBox: '0 0 ' + width + ' ' + height,
        role: 'img',
        'aria-labelledby': titleId + ' ' + descId,
        focusable: 'false',
      },
      svg('title', {id: titleId}, title), svg('desc', {id: descId}, desc));
}

// Round axis maxima: 1, 2, 2.5, 5 times a power of ten.
function niceCeiling(value) {
  if (!(value > 0)) return 1;
  const power = Math.pow(10, Math.floor(Math.log10(value)));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (value <= step * power) return step * power;
  }
  return 10 * power;
}

function tickLabel(value) {
  return String(Number(value.toPrecision(6)));
}

function shortTime(ms) {
  return new Date(ms).toISOString().slice(5, 16).replace('T', ' ');
}

// Cumulative line: points [{x: ms, y: cumulative epsilon, label}], sorted
// by x; ceiling: the granted total, drawn dashed.
function stepChart(container, opts) {
  remember(container, () => drawStepChart(container, opts));
}

function drawStepChart(
    container, {title, desc, points, ceiling, ceilingLabel}) {
  const width = chartWidth(container);
  const height = 240;
  const m = {left: 52, right: 20, top: 18, bottom: 40};
  const root = chartRoot(width, height, title, desc);
  const innerW = width - m.left - m.right;
  const innerH = height - m.top - m.bottom;
  const maxY =
      niceCeiling(Math.max(ceiling || 0, ...points.map((p) => p.y)) * 1.05);
  let x0 = points.length ? points[0].x : Date.now();
  let x1 = points.length ? points[points.length - 1].x : x0;
  if (x1 - x0 < 60000) {
    x0 -= 30000;
    x1 += 30000;
  }
  const sx = (x) => m.left + ((x - x0) / (x1 - x0)) * innerW;
  const sy = (y) => m.top + innerH - (y / maxY) * innerH;

  root.appendChild(yAxis(m, innerW, maxY, sy));
  root.appendChild(svg(
      'g', {class: 'axis', 'aria-hidden': 'true'},
      svg('line', {x1: m.left, x2: m.left + innerW, y1: sy(0), y2: sy(0)}),
      svg('text', {x: m.left, y: height - 12, 'text-anchor': 'start'},
          shortTime(x0)),
      svg('text', {x: m.left + innerW, y: height - 12, 'text-anchor': 'end'},
          shortTime(x1))));

  if (ceiling > 0) {
    root.appendChild(
        svg('g', {class: 'ceiling', 'aria-hidden': 'true'}, svg('line', {
              x1: m.left,
              x2: m.left + innerW,
              y1: sy(ceiling),
              y2: sy(ceiling)
            }),
            svg('text',
                {x: m.left + innerW, y: sy(ceiling) - 5, 'text-anchor': 'end'},
                ceilingLabel)));
  }
  if (points.length === 0) {
    root.appendChild(
        svg('text', {
          class: 'chart-empty',
          x: m.left + innerW / 2,
          y: m.top + innerH / 2,
          'text-anchor': 'middle'
        },
            'Nothing spent yet'));
  } else {
    root.appendChild(stepPath(points, sx, sy, x1));
    root.appendChild(
        svg('g', {class: 'points'},
            points.map(
                (p) =>
                    svg('circle', {cx: sx(p.x), cy: sy(p.y), r: 4},
                        svg('title', null, p.label)))));
  }
  replace(container, root);
}

function yAxis(m, innerW, maxY, sy) {
  const group = svg('g', {class: 'axis', 'aria-hidden': 'true'});
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    const value = maxY * fraction;
    group.appendChild(svg('line', {
      class: 'grid',
      x1: m.left,
      x2: m.left + innerW,
      y1: sy(value),
      y2: sy(value)
    }));
    group.appendChild(
        svg('text', {x: m.left - 8, y: sy(value) + 4, 'text-anchor': 'end'},
            tickLabel(value)));
  }
  group.appendChild(
      svg('text', {x: 12, y: m.top - 4, 'text-anchor': 'start'}, 'ε'));
  return group;
}

// A staircase: the total stays flat between charges and steps up at each.
function stepPath(points, sx, sy, xEnd) {
  let d = 'M' + sx(points[0].x) + ' ' + sy(0);
  for (const p of points) d += ' H' + sx(p.x) + ' V' + sy(p.y);
  d += ' H' + sx(xEnd);
  return svg('path', {class: 'series', d, fill: 'none'});
}

// Horizontal bars: bars [{label, value, valueText, cap, capText}].
function barChart(container, opts) {
  remember(container, () => drawBarChart(container, opts));
}

function drawBarChart(container, {title, desc, bars}) {
  const width = chartWidth(container);
  const rowH = 34;
  const m = {top: 10, bottom: 28};
  const labelW = Math.min(170, Math.floor(width * 0.32));
  const valueW = 96;
  const barX = labelW + 8;
  const barW = Math.max(40, width - barX - valueW);
  const height = m.top + m.bottom + rowH * Math.max(1, bars.length);
  const root = chartRoot(width, height, title, desc);
  const max = niceCeiling(
      Math.max(1e-12, ...bars.map((b) => Math.max(b.value, b.cap || 0))));
  const sx = (v) => barX + (v / max) * barW;

  bars.forEach(
      (bar, index) => root.appendChild(
          barRow(bar, m.top + index * rowH, rowH, labelW, sx)));
  if (bars.length === 0) {
    root.appendChild(
        svg('text', {
          class: 'chart-empty',
          x: width / 2,
          y: m.top + rowH / 2 + 4,
          'text-anchor': 'middle'
        },
            'No datasets'));
  }
  root.appendChild(
      svg('g', {class: 'axis', 'aria-hidden': 'true'}, svg('line', {
            x1: barX,
            x2: barX + barW,
            y1: height - m.bottom,
            y2: height - m.bottom
          }),
          svg('text', {x: barX, y: height - 8, 'text-anchor': 'start'}, '0'),
          svg('text', {x: barX + barW, y: height - 8, 'text-anchor': 'end'},
              'ε ' + tickLabel(max))));
  replace(container, root);
}

function barRow(bar, top, rowH, labelW, sx) {
  const maxChars = Math.max(4, Math.floor(labelW / 7.5));
  // A long id is cut in the picture; its <title> and the summary hold it whole.
  const shown = bar.label.length > maxChars ?
      bar.label.slice(0, maxChars - 1) + '…' :
      bar.label;
  const mid = top + rowH / 2;
  const group =
      svg('g', {class: 'bar-row'},
          svg('title', null,
              bar.label + ': ' + bar.valueText +
                  (bar.cap ? ', ' + bar.capText : '')),
          svg('text',
              {class: 'bar-label', x: labelW, y: mid + 4, 'text-anchor': 'end'},
              shown),
          svg('rect', {
            class: 'bar',
            x: sx(0),
            y: top + 7,
            height: rowH - 14,
            width: Math.max(bar.value > 0 ? 2 : 0, sx(bar.value) - sx(0)),
            rx: 3
          }),
          svg('text', {
            class: 'bar-value',
            x: sx(bar.value) + 6,
            y: mid + 4,
            'text-anchor': 'start'
          },
              bar.valueText));
  if (bar.cap > 0) {
    group.appendChild(svg('line', {
      class: 'cap-marker',
      x1: sx(bar.cap),
      x2: sx(bar.cap),
      y1: top + 3,
      y2: top + rowH - 3
    }));
  }
  return group;
}

window.dpq = window.dpq || {};
window.dpq.charts = {
  stepChart,
  barChart
};
})();
