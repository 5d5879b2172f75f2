// The links part of a site's report.js (see
// internal/report/assets/report.js): on a run's page a bar per member
// (its median, the slow ones red) and a histogram per figure; on the
// comparison page each run's members' medians, sorted from the worst, or
// each run's histogram of the pairs as shares of its pairs, from the plot
// data of suites/links/fold/plot.go.
(function (R) {
  'use strict';
  var $ = R.$, txt = R.txt, logY = R.logY;

  var figures = {
    bw: { title: 'bandwidth one way', unit: 'MB/s', higher: true },
    lat: { title: 'latency', unit: 'µs', higher: false }
  };

  function bars(d, key) {
    var f = figures[key], slow = key === 'bw' ? 'slowBw' : 'slowLat';
    var trace = {
      type: 'bar', name: f.title,
      x: d.members.map(function (m) { return m.name; }),
      y: d.members.map(function (m) { return m[key]; }),
      marker: { color: d.members.map(function (m) { return m[slow] ? '#d62728' : '#1f77b4'; }) },
      hovertemplate: '%{x}: %{y:.4g} ' + f.unit + '<extra></extra>'
    };
    Plotly.react('links-bars-' + key, [trace], {
      title: { text: txt(f.title) + ', each ' + d.level + "'s median", font: { size: 14 }, x: 0.01, xanchor: 'left' },
      xaxis: { title: { text: d.level }, type: 'category', automargin: true },
      yaxis: { title: { text: f.unit } },
      margin: { t: 40, r: 10, l: 60, b: 60 }, showlegend: false
    }, R.plotConfig);
  }

  function hist(h) {
    var f = figures[h.figure], x = [], w = [];
    for (var i = 0; i < h.counts.length; i++) {
      x.push(Math.sqrt(h.edges[i] * h.edges[i + 1]));
      w.push(h.edges[i + 1] - h.edges[i]);
    }
    var trace = {
      type: 'bar', name: f.title, x: x, y: h.counts, width: w,
      hovertemplate: '%{x:.4g} ' + f.unit + ': %{y}<extra></extra>'
    };
    Plotly.react('links-hist-' + h.figure, [trace], {
      title: { text: txt(f.title) + ' of the ' + h.of, font: { size: 14 }, x: 0.01, xanchor: 'left' },
      xaxis: { title: { text: f.unit }, type: 'log' },
      yaxis: { title: { text: h.of } },
      margin: { t: 40, r: 10, l: 60, b: 50 }, showlegend: false, bargap: 0
    }, R.plotConfig);
  }

  function run(d) {
    bars(d, 'bw');
    bars(d, 'lat');
    d.hists.forEach(hist);
  }

  function init() {}

  // sorted is a run's members' medians of one figure, worst first.
  function sorted(d, key) {
    var v = d.members.map(function (m) { return m[key]; }).filter(function (x) { return x !== null; });
    v.sort(function (a, b) { return figures[key].higher ? a - b : b - a; });
    return v;
  }

  // histTrace is a run's histogram of one figure as a step line of
  // each bin's share of the run's pairs (runs of different sizes
  // compare), at the bins' centres on a log scale.
  function histTrace(d, key, st, label) {
    var h = d.hists.filter(function (x) { return x.figure === key; })[0];
    if (!h || !h.counts.length) {
      return null;
    }
    var total = h.counts.reduce(function (a, b) { return a + b; }, 0) || 1;
    return {
      type: 'scatter', mode: 'lines', line: { shape: 'hvh', color: st.colour, dash: st.dash }, name: txt(label),
      x: h.counts.map(function (_, i) { return Math.sqrt(h.edges[i] * h.edges[i + 1]); }),
      y: h.counts.map(function (c) { return 100 * c / total; }),
      hovertemplate: '%{x:.4g} ' + figures[key].unit + ': %{y:.3g} %'
    };
  }

  function traces(runs, missing) {
    var key = $('links-figure').value, view = $('links-view').value, f = figures[key], out = [];
    runs.forEach(function (r) {
      if (!r.links) {
        missing.push(r.label);
        return;
      }
      var st = R.style(out.length);
      if (view === 'hist') {
        var t = histTrace(r.links, key, st, r.label);
        if (t) {
          out.push(t);
        } else {
          missing.push(r.label);
        }
        return;
      }
      var v = sorted(r.links, key);
      out.push({
        type: 'scatter', mode: 'lines+markers', name: txt(r.label),
        line: { color: st.colour, dash: st.dash }, marker: { symbol: st.mark, color: st.colour },
        x: v.map(function (_, i) { return i + 1; }), y: v,
        hovertemplate: '%{y:.4g} ' + f.unit
      });
    });
    if (view === 'hist') {
      return { traces: out, layout: { title: { text: 'links: ' + f.title + ', histogram of the pairs' },
        xaxis: { title: { text: f.unit }, type: 'log' }, yaxis: { title: { text: '% of the run\'s pairs' } } } };
    }
    return { traces: out, layout: { title: { text: 'links: ' + f.title + ', each member\'s median, worst first' },
      xaxis: { title: { text: 'members, worst first' } }, yaxis: logY(f.unit, out) } };
  }

  R.register({ key: 'links', run: run, compare: { init: init, traces: traces } });
}(window.beffReport));
