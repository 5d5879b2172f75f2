// The SKaMPI part of a site's report.js (see internal/report/assets/report.js):
// one plot per suite on a run's page and the SKaMPI curves of the comparison
// page, from the plot data of suites/skampi/fold/plot.go.
(function (R) {
  'use strict';
  var $ = R.$, txt = R.txt;


  // A curve's style (R.style): no two of a suite's up to 30 operations
  // look alike. A hand-built reference is dotted in its library
  // operation's colour, with a marker of its own among the references of
  // that operation.
  var style = R.style;
  var refMarks = ['x', 'star', 'cross', 'triangle-down', 'hexagon', 'pentagon'];

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
    ratio: 'time ÷ time of the contiguous method',
    overlap: 'overlap of computation and communication [%]',
    ofratio: 'time ÷ time of the blocking operation'
  };
  var yUnits = { us: 'µs', mbps: 'MB/s', ratio: '× contiguous', overlap: '%', ofratio: '× blocking' };
  // yOf is the values of curve c that plot y draws (undefined: none).
  function yOf(c, y) {
    return { mbps: c.mbps, ratio: c.ratio, overlap: c.overlap, ofratio: c.ofratio }[y] || (y === 'us' ? c.us : undefined);
  }
  function yTitle(y) { return yTitles[y]; }

  // The methods of a typed suite, in the order of its curves.
  var methods = ['datatype', 'pack', 'manual', 'contiguous'];

  // curveName names a curve: its operation, and a typed suite's method.
  function curveName(c) { return c.method ? c.op + ' · ' + c.method : c.op; }

  // legendName adds the OSU benchmark that measures the same.
  function legendName(c) { return c.osu ? curveName(c) + ' (' + c.osu + ')' : curveName(c); }

  // curveStyle: by library operation, and within it by method; refs
  // counts the references of each operation drawn so far.
  function curveStyle(fam, c, refs) {
    var f = fam[c.ref || c.of || c.op], i = c.method ? f * methods.length + methods.indexOf(c.method) : f;
    var st = style(i);
    if (c.of && fam.drawn[c.of]) { // a form beside its blocking operation: dashed, in its colour
      return { colour: st.colour, dash: 'dash', mark: 'square' };
    }
    if (c.ref) { // two operations of one colour (i, i+R.colours) keep their references apart by marker
      refs[c.ref] = (refs[c.ref] || 0) + 1;
      var round = Math.floor(i / R.colours);
      st = { colour: st.colour, dash: 'dot', mark: refMarks[(round * 2 + refs[c.ref] - 1) % refMarks.length] };
    }
    return st;
  }

  // families numbers the library operations of a suite's curves; a
  // hand-built reference gets the number of the operation it implements.
  // A non-blocking or persistent form gets the number of its blocking
  // operation; drawn says which operations the suite has.
  function families(curves) {
    var index = { drawn: {} }, n = 0;
    curves.forEach(function (c) {
      var f = c.ref || c.of || c.op;
      index.drawn[c.op] = true;
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
      if (c.ovrl && c.ovrl[i] !== null) {
        s += '<br>with the computation ' + Number(c.ovrl[i]).toPrecision(4) + ' µs, overlap ' + Number(c.overlap[i]).toPrecision(3) + ' %';
      }
      return s;
    });
  }

  // symbols mark refined lengths (diamond) and points short of ε (hollow);
  // the others carry the curve's own marker.
  function symbols(c, mark) {
    return c.x.map(function (_, i) {
      return (c.refined[i] ? 'diamond' : mark) + (c.converged[i] ? '' : '-open');
    });
  }

  // curveTraces are the traces of curve c of suite s: with band, first the
  // stragglers band (fastest to slowest process), then the curve.
  function curveTraces(s, c, y, name, st, band) {
    var col = st.colour;
    var ys = yOf(c, y);
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
      line: { width: 1.5, color: col, dash: st.dash },
      marker: { size: c.refined.map(function (r) { return r ? 8 : 5; }), symbol: symbols(c, st.mark), color: col }
    });
    return out;
  }

  // bars are the operations of a suite that varies nothing, one bar each,
  // on a linear axis from zero, each with its value.
  function bars(s, name, col, y) {
    var ys = s.curves.map(function (c) { var v = yOf(c, y === 'mbps' ? 'us' : y); return v ? v[0] : null; });
    return {
      type: 'bar', name: txt(name),
      x: s.curves.map(function (c) { return txt(curveName(c)); }),
      y: ys,
      text: ys.map(function (v) { return v === null ? '' : Number(v).toPrecision(4); }),
      textposition: 'outside', cliponaxis: false,
      customdata: s.curves.map(function (c) { return pointInfo(c)[0]; }),
      hovertemplate: '%{x}<br>%{y:.4g} ' + (y === 'mbps' ? 'µs' : yUnits[y]) + '<br>%{customdata}<extra>' + txt(name) + '</extra>',
      marker: { color: col }
    };
  }

  // axes are log-log; process and work-item counts are ticked at the
  // counts the traces have, not at fractions.
  function axes(vary, y, traces) {
    var linear = y === 'overlap' ? { title: { text: yTitle(y) }, range: [0, 105] } : null;
    if (vary === 'none') {
      return { xaxis: { title: { text: 'operation' } }, yaxis: linear || { title: { text: yTitle(y === 'mbps' ? 'us' : y) }, rangemode: 'tozero' } };
    }
    var x = { type: 'log', title: { text: xTitles[vary] }, exponentformat: 'SI' };
    if (vary !== 'length') {
      var seen = {};
      traces.forEach(function (t) { t.x.forEach(function (v) { seen[v] = true; }); });
      x.tickmode = 'array';
      x.tickvals = Object.keys(seen).map(Number).sort(function (a, b) { return a - b; });
    }
    return { xaxis: x, yaxis: linear || R.logY(yTitle(y), traces) };
  }

  // The plots beside a suite's own that draw a value relative to a
  // reference line: its title, the line and its label.
  var relative = {
    ratio: { title: ': each method\'s time over the contiguous method\'s', at: 1, label: 'contiguous = 1' },
    ofratio: { title: ': each form\'s time over its blocking operation\'s', at: 1, label: 'blocking = 1' },
    overlap: { title: ': overlap of a computation as long as the plain time (IMB-NBC)', at: 100, label: 'fully overlapped = 100 %' }
  };

  // suitePlot draws suite s of a run into element id.
  // A suite of more curves than a plot takes (its data's groups) is drawn
  // as small multiples: element id becomes a grid of a plot per group of
  // collectives, each with that group's curves in the colours they have
  // in the whole suite.
  function suitePlot(id, s, y, band) {
    if (!s.groups || (y !== 'us' && y !== 'mbps')) {
      drawSuite(id, s, y, band, s.curves, '');
      return;
    }
    var grid = $(id);
    if (!grid.classList.contains('multiples')) {
      grid.className = 'multiples';
      s.groups.forEach(function (g, k) {
        var d = document.createElement('div');
        d.id = id + '-g' + k;
        d.className = 'plot';
        d.setAttribute('role', 'img');
        d.setAttribute('aria-label', 'SKaMPI suite ' + s.name + ': ' + g);
        grid.appendChild(d);
      });
    }
    s.groups.forEach(function (g, k) {
      drawSuite(id + '-g' + k, s, y, band, s.curves.filter(function (c) { return c.group === g; }), g);
    });
  }

  // drawSuite draws the curves of suite s into element id; group names
  // the group of collectives they are ("" for the whole suite).
  function drawSuite(id, s, y, band, curves, group) {
    var traces = [];
    if (s.vary === 'none') {
      traces.push(bars(s, s.name, R.style(0).colour, y));
    } else {
      var fam = families(s.curves), refs = {};
      curves.forEach(function (c) {
        traces = traces.concat(curveTraces(s, c, y, legendName(c), curveStyle(fam, c, refs), band));
      });
    }
    var title = 'suite ' + txt(s.name) + (s.pair ? ' (pair ' + txt(s.pair) + ')' : '') + (group ? ': ' + txt(group) : '');
    var rel = relative[y];
    if (rel) {
      title += rel.title;
    }
    if (y === 'mbps' && s.vary !== 'none' && !traces.length) {
      title += ': no ping-pong in this suite';
    }
    var layout = Object.assign({
      title: { text: title, font: { size: 14 }, x: 0.01, xanchor: 'left' },
      hovermode: 'closest', margin: { t: 40, r: 10, l: 70, b: 50 },
      legend: { font: { size: 11 } }
    }, axes(s.vary, y, traces));
    if (rel) { // the reference line: the contiguous method, the blocking operation, full overlap
      layout.shapes = [{ type: 'line', xref: 'paper', x0: 0, x1: 1, y0: rel.at, y1: rel.at, line: { color: '#555', width: 1, dash: 'dash' } }];
      layout.annotations = [{ xref: 'paper', x: 1, y: s.vary === 'none' || y === 'overlap' ? rel.at : 0, yanchor: 'bottom', xanchor: 'right', showarrow: false, text: rel.label, font: { size: 11, color: '#555' } }];
    }
    Plotly.react(id, traces, layout, R.plotConfig);
  }

  function run(d) {
    var ysel = $('skampi-y'), band = $('skampi-band');
    function draw() {
      d.suites.forEach(function (s, i) {
        suitePlot('skampi-plot-' + i, s, ysel.value, band.checked);
        ['ratio', 'overlap', 'ofratio'].forEach(function (y) {
          if ($('skampi-plot-' + i + '-' + y)) {
            suitePlot('skampi-plot-' + i + '-' + y, s, y, false);
          }
        });
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
        out.push(bars({ curves: curves }, r.label, style(k++).colour, y));
        return;
      }
      curves.forEach(function (c) {
        var label = op ? r.label : r.label + ' · ' + curveName(c);
        out = out.concat(curveTraces(s, c, y, label, style(k++), band));
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
