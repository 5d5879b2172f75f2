// The b_eff part of a site's report.js (see internal/report/assets/report.js):
// the bandwidth plot of a run's page and the b_eff curves of the comparison
// page, from the plot data of suites/beff/fold/plot.go.
(function (R) {
  'use strict';
  var $ = R.$, txt = R.txt, logY = R.logY;

  // xAxis is the size axis of run b: the message size in bytes on a log
  // scale, or with seed the seed's axis, where the sizes are equidistant
  // (13 doubling, then 8 geometric steps to Lmax).
  function xAxis(b, seed) {
    if (!seed) {
      return { type: 'log', title: { text: 'message size L [bytes], log scale' }, exponentformat: 'SI', zeroline: false };
    }
    return {
      title: { text: 'message size L [bytes], the seed\'s axis (sizes equidistant)' },
      tickmode: 'array', tickvals: b.x, ticktext: b.ticks, zeroline: false
    };
  }

  // trace is the curve c of run b for the method in style st, per process
  // (each curve divided as its data says: by N, by the processes taking
  // part, the ping-pong by nothing: one pair) or not; wide: a class
  // (thick, solid), else thin.
  function trace(b, c, method, perProc, seed, name, wide, st) {
    var y = c.y[method];
    if (!y) {
      return null;
    }
    var div = perProc ? (c.div || b.n) : 1;
    var unit = perProc ? (c.per || 'per process') : 'all processes';
    return {
      type: 'scatter', mode: 'lines+markers', name: txt(name),
      x: seed ? b.x : b.sizes, y: y.map(function (v) { return v === null ? null : v / div; }),
      customdata: b.sizes,
      hovertemplate: 'L = %{customdata} bytes<br>%{y:.4g} MB/s ' + txt(unit) + '<extra>' + txt(name) + '</extra>',
      line: { width: wide ? 3 : 1.5, dash: wide ? 'solid' : st.dash, color: st.colour },
      marker: { size: wide ? 6 : 4, symbol: st.mark, color: st.colour }
    };
  }

  function run(b) {
    var sel = $('beff-method'), xs = $('beff-run-x');
    function draw() {
      var m = sel.value, seed = xs.value === 'index';
      var traces = [], k = 0;
      b.curves.forEach(function (c) {
        if (c.kind === 'class' || c.kind === 'extra') {
          var st = c.kind === 'class' ? R.style(k++) : R.style(k++, ['dot', 'dashdot', 'longdashdot']);
          var t = trace(b, c, m, true, seed, c.name + ' (' + (c.per || 'per process') + ')', c.kind === 'class', st);
          if (t) {
            traces.push(t);
          }
        }
      });
      var label = m === 'best' ? 'best of the methods' : m;
      Plotly.react('beff-plot', traces, {
        title: { text: 'b_eff: bandwidth per process, ' + txt(label) + ', N = ' + b.n },
        xaxis: xAxis(b, seed),
        yaxis: logY('MB/s per process (ping-pong: one pair), log scale', traces),
        hovermode: 'closest', margin: { t: 50, r: 10 }
      }, R.plotConfig);
    }
    sel.addEventListener('change', draw);
    xs.addEventListener('change', draw);
    draw();
  }

  // init offers the patterns of every run (classes first), then the
  // scaling picture.
  function init(runs) {
    var psel = $('beff-pattern'), seen = {};
    runs.forEach(function (r) {
      if (!r.beff) {
        return;
      }
      r.beff.curves.forEach(function (c) {
        if (!seen[c.name]) {
          seen[c.name] = true;
          R.option(psel, c.name, c.kind === 'class' ? c.name : c.name + ' (' + c.kind + ')');
        }
      });
    });
    R.option(psel, 'scaling', 'b_eff per process over N (scaling: a curve per machine)');
  }

  // scaling is the paper's picture: b_eff per process over the processes,
  // a curve per machine (its runs at every process count).
  function scaling(runs, missing) {
    var machines = {}, order = [];
    runs.forEach(function (r) {
      if (!r.beff || !(r.beff.beff > 0)) {
        missing.push(r.label);
        return;
      }
      if (!machines[r.machine]) {
        machines[r.machine] = [];
        order.push(r.machine);
      }
      machines[r.machine].push(r);
    });
    var ns = {};
    var out = order.map(function (m, i) {
      var rs = machines[m].slice().sort(function (a, b) { return a.beff.n - b.beff.n; });
      rs.forEach(function (r) { ns[r.beff.n] = true; });
      var st = R.style(i);
      return {
        type: 'scatter', mode: 'lines+markers', name: txt(m),
        x: rs.map(function (r) { return r.beff.n; }),
        y: rs.map(function (r) { return r.beff.beff / r.beff.n; }),
        customdata: rs.map(function (r) { return txt(r.label); }),
        hovertemplate: 'N = %{x}<br>b_eff / N = %{y:.4g} MB/s<br>%{customdata}<extra>' + txt(m) + '</extra>',
        line: { color: st.colour, dash: st.dash }, marker: { symbol: st.mark, color: st.colour, size: 7 }
      };
    });
    var ticks = Object.keys(ns).map(Number).sort(function (a, b) { return a - b; });
    return {
      traces: out,
      layout: {
        title: { text: 'b_eff per process over the processes N (a curve per machine)' },
        xaxis: { type: 'log', title: { text: 'processes N, log scale' }, tickmode: 'array', tickvals: ticks },
        yaxis: logY('b_eff / N [MB/s per process], log scale', out)
      }
    };
  }

  function traces(runs, missing) {
    var pat = $('beff-pattern').value, m = $('beff-method').value;
    if (pat === 'scaling') {
      return scaling(runs, missing);
    }
    var perProc = $('beff-y').value === 'proc', bytes = $('beff-x').value === 'bytes';
    var out = [];
    runs.forEach(function (r) {
      var c = r.beff.curves.filter(function (c) { return c.name === pat; })[0];
      var name = r.label + (c && perProc ? ' (' + (c.per || 'per process') + ')' : '');
      var t = c && trace(r.beff, c, m, perProc, !bytes, name, false, R.style(out.length + missing.length));
      if (t) {
        out.push(t);
      } else {
        missing.push(r.label);
      }
    });
    var first = runs[0] && runs[0].beff;
    var xaxis = bytes || !first ? xAxis(first, false) : xAxis(first, true);
    if (!bytes && first) {
      xaxis.title.text += ' (labels: sizes of the first run)';
    }
    var label = m === 'best' ? 'best of the methods' : m;
    return {
      traces: out,
      layout: {
        title: { text: 'b_eff: ' + txt(pat) + ', ' + txt(label) },
        xaxis: xaxis,
        yaxis: logY(perProc ? 'MB/s per process (ping-pong: one pair), log scale' : 'MB/s of all processes, log scale', out)
      }
    };
  }

  R.register({ key: 'beff', run: run, compare: { init: init, traces: traces } });
}(window.beffReport));
