// The b_eff_io part of a site's report.js (see
// internal/report/assets/report.js): the 3+5 plots of a run's page and the
// b_eff_io curves of the comparison page, from the plot data of
// suites/beffio/fold/plot.go.
(function (R) {
  'use strict';
  var $ = R.$, txt = R.txt, logY = R.logY;

  // xAxis is the seed's chunk-size axis: the chunk sizes equidistant,
  // labelled with their ticks (MPART by name: its size is in the title).
  function xAxis(chunks, title) {
    return {
      title: { text: txt(title) },
      tickmode: 'array',
      tickvals: chunks.map(function (c) { return c.x; }),
      ticktext: chunks.map(function (c) { return txt(c.tick); }),
      zeroline: false
    };
  }

  // mpartTitle is the axis title of a run's chunk sizes.
  function mpartTitle(io) {
    var m = io.chunks.filter(function (c) { return c.tick === 'MPART'; })[0];
    return 'disk chunk size l' + (m ? ' (' + m.label.replace('MPART ', 'MPART = ') + ')' : '');
  }

  // traces are the curve y of run io in style i: the well-formed chunk
  // sizes joined, and their non-wellformed "+8" twins as a curve of their
  // own (dashed, hollow markers), so that no line joins unlike sizes.
  function traces(io, y, name, i) {
    var st = R.style(i);
    function part(odd) {
      return {
        type: 'scatter', mode: 'lines+markers', name: txt(name) + (odd ? ' (+8 bytes)' : ''),
        legendgroup: txt(name), connectgaps: true,
        line: { color: st.colour, dash: odd ? 'dot' : st.dash },
        marker: { symbol: st.mark + (odd ? '-open' : ''), color: st.colour },
        x: io.chunks.map(function (c) { return c.x; }),
        y: y.map(function (v, k) { return !!io.chunks[k].odd === odd ? v : null; }),
        customdata: io.chunks.map(function (c) { return txt(c.label); }),
        hovertemplate: 'l = %{customdata}<br>%{y:.4g} MB/s<extra>' + txt(name) + '</extra>'
      };
    }
    var out = [part(false)];
    if (io.chunks.some(function (c, k) { return c.odd && y[k] !== null; })) {
      out.push(part(true));
    }
    return out;
  }

  function layout(io, title, traces) {
    return {
      title: { text: title, font: { size: 14 }, x: 0.01, xanchor: 'left' },
      xaxis: xAxis(io.chunks, mpartTitle(io)),
      yaxis: logY('MB/s', traces),
      hovermode: 'closest', margin: { t: 40, r: 10, l: 60, b: 50 },
      legend: { font: { size: 11 } }
    };
  }

  function run(io) {
    var sel = $('io-partition');
    function draw() {
      var n = parseInt(sel.value, 10);
      var part = io.partitions.filter(function (p) { return p.n === n; })[0];
      if (!part) {
        return;
      }
      io.accesses.forEach(function (acc, a) {
        var ts = [];
        io.types.forEach(function (t, ti) { ts = ts.concat(traces(io, part.bw[a][ti], ti + ': ' + t, ti)); });
        Plotly.react('io-acc-' + a, ts, layout(io, txt(acc) + ', n = ' + n, ts), R.plotConfig);
      });
      io.types.forEach(function (t, ti) {
        var ts = [];
        io.accesses.forEach(function (acc, a) { ts = ts.concat(traces(io, part.bw[a][ti], acc, a)); });
        Plotly.react('io-type-' + ti, ts, layout(io, 'type ' + ti + ': ' + txt(t) + ', n = ' + n, ts), R.plotConfig);
      });
    }
    sel.addEventListener('change', draw);
    draw();
  }

  // init offers every partition size of the runs, the smallest first
  // (one size a plot), then each run's own choice of partition.
  function init(runs) {
    var parts = [], sel = $('io-partition');
    runs.forEach(function (r) {
      if (r.io) {
        r.io.partitions.forEach(function (p) {
          if (parts.indexOf(p.n) < 0) {
            parts.push(p.n);
          }
        });
      }
    });
    parts.sort(function (a, b) { return a - b; });
    parts.forEach(function (n) { R.option(sel, 'n' + n, 'n = ' + n); });
    R.option(sel, 'best', 'each run\'s partition of b_eff_io (sizes differ)');
    R.option(sel, 'largest', 'each run\'s largest (sizes differ)');
    R.option(sel, 'smallest', 'each run\'s smallest (sizes differ)');
  }

  function compareTraces(runs, missing) {
    var which = $('io-partition').value;
    var ti = parseInt($('io-type').value, 10), a = parseInt($('io-access').value, 10);
    var out = [], ticks = {}, k = 0;
    runs.forEach(function (r) {
      var ps = r.io.partitions, part;
      if (which === 'best') {
        part = ps.filter(function (p) { return p.n === r.io.best; })[0];
      } else if (which === 'largest') {
        part = ps[ps.length - 1];
      } else if (which === 'smallest') {
        part = ps[0];
      } else {
        part = ps.filter(function (p) { return 'n' + p.n === which; })[0];
      }
      if (!part || part.bw[a][ti].every(function (v) { return v === null; })) {
        missing.push(r.label);
        return;
      }
      r.io.chunks.forEach(function (c) { ticks[c.x] = c.tick; });
      out = out.concat(traces(r.io, part.bw[a][ti], r.label + ' (n = ' + part.n + ')', k++));
    });
    var xs = Object.keys(ticks).map(parseFloat).sort(function (x, y) { return x - y; });
    var chunks = xs.map(function (x) { return { x: x, tick: ticks[x] }; });
    var ts = $('io-type'), as = $('io-access'), ps = $('io-partition');
    return {
      traces: out,
      layout: {
        title: { text: 'b_eff_io: ' + txt(ts.options[ts.selectedIndex].textContent) + ', ' +
          txt(as.options[as.selectedIndex].textContent) + ', ' + txt(ps.options[ps.selectedIndex].textContent) },
        xaxis: xAxis(chunks, 'disk chunk size l (MPART: as in each run)'),
        yaxis: logY('MB/s', out)
      }
    };
  }

  R.register({ key: 'io', run: run, compare: { init: init, traces: compareTraces } });
}(window.beffReport));
