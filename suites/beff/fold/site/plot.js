// The b_eff part of a site's report.js (see internal/report/assets/report.js):
// the bandwidth plot of a run's page and the b_eff curves of the comparison
// page, from the plot data of suites/beff/fold/plot.go.
(function (R) {
  'use strict';
  var $ = R.$, txt = R.txt, logY = R.logY;

  // xAxis is the seed's size axis: size positions with their labels.
  function xAxis(b) {
    return {
      title: { text: 'message size L [bytes]' },
      tickmode: 'array', tickvals: b.x, ticktext: b.ticks, zeroline: false
    };
  }

  // trace is the curve c of run b for the method in style st; wide: a
  // class (thick, solid), else thin.
  function trace(b, c, method, perProc, x, name, wide, st) {
    var y = c.y[method];
    if (!y) {
      return null;
    }
    var div = perProc ? b.n : 1;
    return {
      type: 'scatter', mode: 'lines+markers', name: txt(name),
      x: x, y: y.map(function (v) { return v === null ? null : v / div; }),
      customdata: b.sizes,
      hovertemplate: 'L = %{customdata} bytes<br>%{y:.4g} MB/s',
      line: { width: wide ? 3 : 1.5, dash: wide ? 'solid' : st.dash, color: st.colour },
      marker: { size: wide ? 6 : 4, symbol: st.mark, color: st.colour }
    };
  }

  function run(b) {
    var sel = $('beff-method');
    function draw() {
      var m = sel.value;
      var traces = [], k = 0;
      b.curves.forEach(function (c) {
        if (c.kind === 'class' || c.kind === 'extra') {
          var st = c.kind === 'class' ? R.style(k++) : R.style(k++, ['dot', 'dashdot', 'longdashdot']);
          var t = trace(b, c, m, true, b.x, c.name, c.kind === 'class', st);
          if (t) {
            traces.push(t);
          }
        }
      });
      var label = m === 'best' ? 'best of the methods' : m;
      Plotly.react('beff-plot', traces, {
        title: { text: 'b_eff: bandwidth per process, ' + txt(label) + ', N = ' + b.n },
        xaxis: xAxis(b),
        yaxis: logY('MB/s per process (bandwidth / N)', traces),
        hovermode: 'closest', margin: { t: 50, r: 10 }
      }, R.plotConfig);
    }
    sel.addEventListener('change', draw);
    draw();
  }

  // init offers the patterns of every run (classes first).
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
  }

  function traces(runs, missing) {
    var pat = $('beff-pattern').value, m = $('beff-method').value;
    var perProc = $('beff-y').value === 'proc', bytes = $('beff-x').value === 'bytes';
    var out = [];
    runs.forEach(function (r) {
      var c = r.beff.curves.filter(function (c) { return c.name === pat; })[0];
      var t = c && trace(r.beff, c, m, perProc, bytes ? r.beff.sizes : r.beff.x, r.label, false, R.style(out.length + missing.length));
      if (t) {
        out.push(t);
      } else {
        missing.push(r.label);
      }
    });
    var first = runs[0] && runs[0].beff;
    var xaxis = bytes || !first ?
      { type: 'log', title: { text: 'message size L [bytes]' }, exponentformat: 'SI' } :
      xAxis(first);
    if (!bytes && first) {
      xaxis.title.text += ' (labels: sizes of the first run)';
    }
    var label = m === 'best' ? 'best of the methods' : m;
    return {
      traces: out,
      layout: {
        title: { text: 'b_eff: ' + txt(pat) + ', ' + txt(label) },
        xaxis: xaxis,
        yaxis: logY(perProc ? 'MB/s per process (bandwidth / N)' : 'MB/s', out)
      }
    };
  }

  R.register({ key: 'beff', run: run, compare: { init: init, traces: traces } });
}(window.beffReport));
