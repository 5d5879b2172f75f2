// The links part of a site's report.js (see
// internal/report/assets/report.js): on a run's page a bar per member
// (its median, the slow ones red) and a histogram per figure; on the
// comparison page each run's members' medians, sorted from the worst,
// from the plot data of suites/links/fold/plot.go.
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

  function traces(runs, missing) {
    var key = $('links-figure').value, f = figures[key], out = [];
    runs.forEach(function (r) {
      if (!r.links) {
        missing.push(r.label);
        return;
      }
      var v = sorted(r.links, key), st = R.style(out.length);
      out.push({
        type: 'scatter', mode: 'lines+markers', name: txt(r.label),
        line: { color: st.colour, dash: st.dash }, marker: { symbol: st.mark, color: st.colour },
        x: v.map(function (_, i) { return i + 1; }), y: v,
        hovertemplate: '%{y:.4g} ' + f.unit
      });
    });
    return { traces: out, layout: { title: { text: 'links: ' + f.title + ', each member\'s median, worst first' },
      xaxis: { title: { text: 'members, worst first' } }, yaxis: logY(f.unit, out) } };
  }

  R.register({ key: 'links', run: run, compare: { init: init, traces: traces } });
}(window.beffReport));
