// The SKaMPI part of a site's report.js (see internal/report/assets/report.js):
// one plot per suite on a run's page and the SKaMPI curves of the comparison
// page, from the plot data of suites/skampi/fold/plot.go.
(function (R) {
  'use strict';
  var $ = R.$, txt = R.txt;

  // plotly's default colours and ten darker ones (a suite of collectives has
  // up to 20 library operations), given explicitly: a band and its curve,
  // and a reference and its library operation, share one.
  var colours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
    '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf',
    '#393b79', '#b5790a', '#3b6e1f', '#8c1c13', '#5b2a86',
    '#4d3319', '#a0336d', '#3a3a3a', '#6b6b00', '#0b6e7a'];

  function colour(i) { return colours[i % colours.length]; }

  // shade is colour c (#rrggbb) with opacity a.
  function shade(c, a) {
    var n = parseInt(c.slice(1), 16);
    return 'rgba(' + (n >> 16) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + a + ')';
  }

  var xTitles = {
    length: 'message length [bytes]',
    procs: 'processes',
    chunks: 'work items per round'
  };
  var xUnits = { length: ' bytes', procs: ' processes', chunks: ' work items' };

  var yTitles = {
    us: 'time per call [µs]', mbps: 'ping-pong bandwidth [MB/s]',
    ratio: 'time ÷ time of the contiguous method'
  };
  var yUnits = { us: 'µs', mbps: 'MB/s', ratio: '× contiguous' };
  function yTitle(y) { return yTitles[y]; }

  // The methods of a typed suite, in the order of its curves.
  var methods = ['datatype', 'pack', 'manual', 'contiguous'];

  // curveName names a curve: its operation, and a typed suite's method.
  function curveName(c) { return c.method ? c.op + ' · ' + c.method : c.op; }

  // legendName adds the OSU benchmark that measures the same.
  function legendName(c) { return c.osu ? curveName(c) + ' (' + c.osu + ')' : curveName(c); }

  // curveColour: by library operation, and within it by method.
  function curveColour(fam, c) {
    var f = fam[c.ref || c.op];
    return colour(c.method ? f * methods.length + methods.indexOf(c.method) : f);
  }

  // families numbers the library operations of a suite's curves; a
  // hand-built reference gets the number of the operation it implements.
  function families(curves) {
    var index = {}, n = 0;
    curves.forEach(function (c) {
      var f = c.ref || c.op;
      if (!(f in index)) {
        index[f] = n++;
      }
    });
    return index;
  }

  // pointInfo is the hover text of each point beyond x and y.
  function pointInfo(c) {
    return c.x.map(function (_, i) {
      var s = c.rse[i] === null ? 'rse –' : 'rse ' + c.rse[i].toPrecision(2);
      if (c.refined[i]) {
        s += ', added by refinement';
      }
      if (!c.converged[i]) {
        s += ', did not reach ε';
      }
      return s;
    });
  }

  // symbols mark refined lengths (diamond) and points short of ε (hollow).
  function symbols(c) {
    return c.x.map(function (_, i) {
      return (c.refined[i] ? 'diamond' : 'circle') + (c.converged[i] ? '' : '-open');
    });
  }

  // curveTraces are the traces of curve c of suite s: with band, first the
  // stragglers band (fastest to slowest process), then the curve.
  function curveTraces(s, c, y, name, col, band) {
    var ys = y === 'mbps' ? c.mbps : y === 'ratio' ? c.ratio : c.us;
    if (!ys) {
      return [];
    }
    var group = name, out = [];
    if (band && y === 'us' && c.lo) {
      var common = {
        type: 'scatter', mode: 'lines', x: c.x, legendgroup: group, showlegend: false,
        line: { width: 0, color: col }, hoverinfo: 'skip'
      };
      out.push(Object.assign({ y: c.lo }, common));
      out.push(Object.assign({ y: c.hi, fill: 'tonexty', fillcolor: shade(col, 0.15) }, common));
    }
    out.push({
      type: 'scatter', mode: 'lines+markers', name: txt(name), legendgroup: group,
      x: c.x, y: ys, customdata: pointInfo(c),
      hovertemplate: '%{x}' + xUnits[s.vary] + '<br>%{y:.4g} ' + yUnits[y] +
        '<br>%{customdata}<extra>' + txt(name) + '</extra>',
      line: { width: 1.5, color: col, dash: c.ref ? 'dot' : 'solid' },
      marker: { size: c.refined.map(function (r) { return r ? 8 : 5; }), symbol: symbols(c), color: col }
    });
    return out;
  }

  // bars are the operations of a suite that varies nothing, one bar each.
  function bars(s, name, col, y) {
    return {
      type: 'bar', name: txt(name),
      x: s.curves.map(function (c) { return txt(curveName(c)); }),
      y: s.curves.map(function (c) { return y === 'ratio' ? (c.ratio ? c.ratio[0] : null) : c.us[0]; }),
      customdata: s.curves.map(function (c) { return pointInfo(c)[0]; }),
      hovertemplate: '%{x}<br>%{y:.4g} ' + (y === 'ratio' ? yUnits.ratio : 'µs') + '<br>%{customdata}<extra>' + txt(name) + '</extra>',
      marker: { color: col }
    };
  }

  // axes are log-log; process and work-item counts are ticked at the
  // counts the traces have, not at fractions.
  function axes(vary, y, traces) {
    if (vary === 'none') {
      return { xaxis: { title: { text: 'operation' } }, yaxis: R.logY(yTitle(y === 'ratio' ? y : 'us')) };
    }
    var x = { type: 'log', title: { text: xTitles[vary] }, exponentformat: 'SI' };
    if (vary !== 'length') {
      var seen = {};
      traces.forEach(function (t) { t.x.forEach(function (v) { seen[v] = true; }); });
      x.tickmode = 'array';
      x.tickvals = Object.keys(seen).map(Number).sort(function (a, b) { return a - b; });
    }
    return { xaxis: x, yaxis: R.logY(yTitle(y)) };
  }

  // suitePlot draws suite s of a run into element id.
  function suitePlot(id, s, y, band) {
    var traces = [];
    if (s.vary === 'none') {
      traces.push(bars(s, s.name, colour(0), y));
    } else {
      var fam = families(s.curves);
      s.curves.forEach(function (c) {
        traces = traces.concat(curveTraces(s, c, y, legendName(c), curveColour(fam, c), band));
      });
    }
    var title = 'suite ' + txt(s.name) + (s.pair ? ' (pair ' + txt(s.pair) + ')' : '');
    if (y === 'ratio') {
      title += ': each method\'s time over the contiguous method\'s';
    }
    if (y === 'mbps' && s.vary !== 'none' && !traces.length) {
      title += ': no ping-pong in this suite';
    }
    var layout = Object.assign({
      title: { text: title, font: { size: 14 }, x: 0.01, xanchor: 'left' },
      hovermode: 'closest', margin: { t: 40, r: 10, l: 70, b: 50 },
      legend: { font: { size: 11 } }
    }, axes(s.vary, y, traces));
    Plotly.react(id, traces, layout, R.plotConfig);
  }

  function run(d) {
    var ysel = $('skampi-y'), band = $('skampi-band');
    function draw() {
      d.suites.forEach(function (s, i) {
        suitePlot('skampi-plot-' + i, s, ysel.value, band.checked);
        if ($('skampi-plot-' + i + '-ratio')) {
          suitePlot('skampi-plot-' + i + '-ratio', s, 'ratio', false);
        }
      });
    }
    ysel.addEventListener('change', draw);
    band.addEventListener('change', draw);
    draw();
  }

  // ---- comparison ----

  function suiteOf(r, name) {
    return r.skampi && r.skampi.suites.filter(function (s) { return s.name === name; })[0];
  }

  // init offers the suites of every run and, for the chosen suite, the
  // operations any run has in it.
  function init(runs) {
    var ssel = $('skampi-suite'), osel = $('skampi-op'), seen = {};
    runs.forEach(function (r) {
      (r.skampi ? r.skampi.suites : []).forEach(function (s) {
        if (!seen[s.name]) {
          seen[s.name] = true;
          R.option(ssel, s.name, s.name + ' (' + (s.vary === 'none' ? 'one point' : 'over ' + xTitles[s.vary]) + ')');
        }
      });
    });
    function ops() {
      var had = osel.value, names = {};
      osel.textContent = '';
      R.option(osel, '', 'all operations');
      runs.forEach(function (r) {
        var s = suiteOf(r, ssel.value);
        (s ? s.curves : []).forEach(function (c) {
          var n = curveName(c);
          if (!names[n]) {
            names[n] = true;
            R.option(osel, n, n + (c.ref ? ' (reference of ' + c.ref + ')' : ''));
          }
        });
      });
      osel.value = names[had] ? had : (osel.options.length > 1 ? osel.options[1].value : '');
    }
    ssel.addEventListener('change', ops);
    ops();
  }

  function traces(runs, missing) {
    var name = $('skampi-suite').value, op = $('skampi-op').value;
    var y = $('skampi-cy').value, band = $('skampi-cband').checked;
    var out = [], vary = null, k = 0;
    runs.forEach(function (r) {
      var s = suiteOf(r, name);
      var curves = s ? s.curves.filter(function (c) { return !op || curveName(c) === op; }) : [];
      if (!curves.length) {
        missing.push(r.label);
        return;
      }
      vary = vary || s.vary;
      if (s.vary === 'none') {
        out.push(bars({ curves: curves }, r.label, colour(k++), y));
        return;
      }
      curves.forEach(function (c) {
        var label = op ? r.label : r.label + ' · ' + curveName(c);
        out = out.concat(curveTraces(s, c, y, label, colour(k++), band));
      });
    });
    var what = op ? op : 'all operations';
    return {
      traces: out,
      layout: Object.assign({ title: { text: 'SKaMPI: suite ' + txt(name) + ', ' + txt(what) } },
        axes(vary || 'length', y, out))
    };
  }

  R.register({ key: 'skampi', run: run, compare: { init: init, traces: traces } });
}(window.beffReport));
