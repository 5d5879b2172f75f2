// The congestion part of a site's report.js (see
// internal/report/assets/report.js): per canary its distribution alone
// against under each load on a run's page, and one canary's distribution
// across runs on the comparison page, from the plot data of
// suites/congestion/fold/plot.go.
(function (R) {
  'use strict';
  var $ = R.$, txt = R.txt, logY = R.logY;

  function unitText(u) { return u === 'us' ? 'µs' : u; }

  function trace(points, values, name, i, unit) {
    var st = R.style(i);
    return {
      type: 'scatter', mode: 'lines+markers', name: txt(name),
      line: { color: st.colour, dash: st.dash }, marker: { symbol: st.mark, color: st.colour },
      x: points, y: values,
      hovertemplate: '%{x}: %{y:.4g} ' + unitText(unit)
    };
  }

  function layout(title, unit, traces) {
    return {
      title: { text: title, font: { size: 14 }, x: 0.01, xanchor: 'left' },
      xaxis: { title: { text: 'percentile of the samples' }, type: 'category' },
      yaxis: logY(unitText(unit), traces),
      hovermode: 'closest', margin: { t: 40, r: 10, l: 60, b: 50 },
      legend: { font: { size: 11 } }
    };
  }

  function run(d) {
    d.canaries.forEach(function (c) {
      var traces = c.loads.map(function (l, i) { return trace(d.points, l.values, l.load, i, c.unit); });
      Plotly.react('congestion-dist-' + c.canary, traces, layout(txt(c.canary), c.unit, traces), R.plotConfig);
    });
  }

  function init() {}

  // worst is the load under which a canary's mean is furthest from
  // isolated (the one load when all congestors ran together).
  function pick(c, which) {
    if (which === 'isolated' || c.loads.length < 2) {
      return c.loads[0];
    }
    var bw = c.unit !== 'us', best = c.loads[1];
    c.loads.slice(1).forEach(function (l) {
      var a = l.values[0], b = best.values[0];
      if (a !== null && (b === null || (bw ? a < b : a > b))) {
        best = l;
      }
    });
    return best;
  }

  function traces(runs, missing) {
    var canary = $('congestion-canary').value, which = $('congestion-load').value;
    var out = [], unit = 'us';
    runs.forEach(function (r) {
      var c = r.congestion && r.congestion.canaries.filter(function (x) { return x.canary === canary; })[0];
      if (!c) {
        missing.push(r.label);
        return;
      }
      var l = pick(c, which);
      unit = c.unit;
      out.push(trace(r.congestion.points, l.values, r.label + ' (' + l.load + ')', out.length, c.unit));
    });
    return { traces: out, layout: { title: { text: 'congestion: ' + txt(canary) + ', ' + which },
      xaxis: { title: { text: 'percentile of the samples' }, type: 'category' }, yaxis: logY(unitText(unit), out) } };
  }

  R.register({ key: 'congestion', run: run, compare: { init: init, traces: traces } });
}(window.beffReport));
