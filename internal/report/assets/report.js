// report.js: the glue code of a site written by `beff report`. It sorts the
// tables, draws the plots of a run's page and of the comparison page with
// plotly.js, and keeps every label from the results files text: DOM text is
// set with textContent, and labels given to plotly (which reads a subset of
// HTML in them) are entity-escaped with txt. The data comes from the JSON in
// the page's <script type="application/json"> element (see
// internal/report/data.go for its shape).
(function () {
  'use strict';

  function $(id) { return document.getElementById(id); }
  function each(list, f) { Array.prototype.forEach.call(list, f); }
  function pageData(id) {
    var el = $(id);
    return el ? JSON.parse(el.textContent) : null;
  }
  // txt escapes s for plotly's labels, which interpret tags and entities.
  function txt(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }
  function option(sel, value, label) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    sel.appendChild(o);
    return o;
  }

  // logY is a logarithmic bandwidth axis with whole numbers at the minor
  // ticks too ("2k", not "2").
  function logY(title) {
    return { type: 'log', title: { text: title }, minorloglabels: 'complete' };
  }

  var plotConfig = {
    displaylogo: false,
    responsive: true,
    toImageButtonOptions: { format: 'png', scale: 2 }
  };

  // ---- sortable tables: click (or Enter on) a header with data-type ----

  function sortKey(td, type) {
    var v = td.hasAttribute('data-v') ? td.getAttribute('data-v') : td.textContent.trim();
    if (type === 'num') {
      return v === '' ? null : parseFloat(v);
    }
    return v;
  }

  function sortTable(table, col, type, th) {
    var asc = th.getAttribute('aria-sort') !== 'ascending';
    each(th.parentNode.cells, function (c) { c.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = sortKey(a.cells[col], type), y = sortKey(b.cells[col], type);
      if (x === null || y === null) { // empty cells last, either way
        return x === y ? 0 : (x === null ? 1 : -1);
      }
      var c = type === 'num' ? x - y : x.localeCompare(y, undefined, { numeric: true });
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }

  function sortable(table) {
    each(table.tHead.rows[0].cells, function (th, col) {
      var type = th.getAttribute('data-type');
      if (!type) {
        return;
      }
      th.classList.add('sort');
      th.tabIndex = 0;
      th.title = 'sort';
      var go = function () { sortTable(table, col, type, th); };
      th.addEventListener('click', go);
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          go();
        }
      });
    });
  }

  // ---- b_eff ----

  // beffXAxis is the seed's size axis: size positions with their labels.
  function beffXAxis(b) {
    return {
      title: { text: 'message size L [bytes]' },
      tickmode: 'array', tickvals: b.x, ticktext: b.ticks, zeroline: false
    };
  }

  // beffTrace is the curve c of run b for the method; wide: a class
  // (thick), else thin and, with dotted, dotted.
  function beffTrace(b, c, method, perProc, x, name, wide, dotted) {
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
      line: { width: wide ? 3 : 1.5, dash: dotted ? 'dot' : 'solid' }, marker: { size: wide ? 6 : 4 }
    };
  }

  function runBeff(b) {
    var sel = $('beff-method');
    function draw() {
      var m = sel.value;
      var traces = [];
      b.curves.forEach(function (c) {
        if (c.kind === 'class' || c.kind === 'extra') {
          var t = beffTrace(b, c, m, true, b.x, c.name, c.kind === 'class', c.kind !== 'class');
          if (t) {
            traces.push(t);
          }
        }
      });
      var label = m === 'best' ? 'best of the methods' : m;
      Plotly.react('beff-plot', traces, {
        title: { text: 'b_eff: bandwidth per process, ' + txt(label) + ', N = ' + b.n },
        xaxis: beffXAxis(b),
        yaxis: logY('MB/s per process (bandwidth / N)'),
        hovermode: 'closest', margin: { t: 50, r: 10 }
      }, plotConfig);
    }
    sel.addEventListener('change', draw);
    draw();
  }

  // ---- b_eff_io ----

  // ioXAxis is the seed's chunk-size axis: the chunk sizes equidistant,
  // labelled with their ticks (MPART by name: its size is in the title).
  function ioXAxis(chunks, title) {
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

  function ioTrace(io, y, name) {
    return {
      type: 'scatter', mode: 'lines+markers', name: txt(name),
      x: io.chunks.map(function (c) { return c.x; }), y: y,
      customdata: io.chunks.map(function (c) { return txt(c.label); }),
      hovertemplate: 'l = %{customdata}<br>%{y:.4g} MB/s'
    };
  }

  function ioLayout(io, title) {
    return {
      title: { text: title, font: { size: 14 }, x: 0.01, xanchor: 'left' },
      xaxis: ioXAxis(io.chunks, mpartTitle(io)),
      yaxis: logY('MB/s'),
      hovermode: 'closest', margin: { t: 40, r: 10, l: 60, b: 50 },
      legend: { font: { size: 11 } }
    };
  }

  function runIO(io) {
    var sel = $('io-partition');
    function draw() {
      var n = parseInt(sel.value, 10);
      var part = io.partitions.filter(function (p) { return p.n === n; })[0];
      if (!part) {
        return;
      }
      io.accesses.forEach(function (acc, a) {
        var traces = io.types.map(function (t, ti) { return ioTrace(io, part.bw[a][ti], ti + ': ' + t); });
        Plotly.react('io-acc-' + a, traces, ioLayout(io, txt(acc) + ', n = ' + n), plotConfig);
      });
      io.types.forEach(function (t, ti) {
        var traces = io.accesses.map(function (acc, a) { return ioTrace(io, part.bw[a][ti], acc); });
        Plotly.react('io-type-' + ti, traces, ioLayout(io, 'type ' + ti + ': ' + txt(t) + ', n = ' + n), plotConfig);
      });
    }
    sel.addEventListener('change', draw);
    draw();
  }

  function runPage() {
    var d = pageData('run-data');
    if (d.beff) {
      runBeff(d.beff);
    }
    if (d.io) {
      runIO(d.io);
    }
  }

  // ---- comparison ----

  function comparePage() {
    var d = pageData('compare-data');
    var byId = {};
    d.runs.forEach(function (r) { byId[r.id] = r; });
    var gd = $('compare-plot');
    var status = $('compare-status');

    // The patterns of every run (classes first), and every partition size.
    var psel = $('beff-pattern'), seen = {};
    d.runs.forEach(function (r) {
      if (!r.beff) {
        return;
      }
      r.beff.curves.forEach(function (c) {
        if (!seen[c.name]) {
          seen[c.name] = true;
          option(psel, c.name, c.kind === 'class' ? c.name : c.name + ' (' + c.kind + ')');
        }
      });
    });
    var parts = [];
    d.runs.forEach(function (r) {
      if (r.io) {
        r.io.partitions.forEach(function (p) {
          if (parts.indexOf(p.n) < 0) {
            parts.push(p.n);
          }
        });
      }
    });
    parts.sort(function (a, b) { return a - b; });
    parts.forEach(function (n) { option($('io-partition'), 'n' + n, 'n = ' + n); });

    function suite() { return document.querySelector('input[name=suite]:checked').value; }
    function picks() { return document.querySelectorAll('#compare-runs input.pick'); }
    function picked() {
      var out = [];
      each(picks(), function (i) {
        if (i.checked && !i.disabled) {
          out.push(byId[i.value]);
        }
      });
      return out;
    }

    function beffTraces(runs, missing) {
      var pat = psel.value, m = $('beff-method').value;
      var perProc = $('beff-y').value === 'proc', bytes = $('beff-x').value === 'bytes';
      var traces = [];
      runs.forEach(function (r) {
        var c = r.beff.curves.filter(function (c) { return c.name === pat; })[0];
        var t = c && beffTrace(r.beff, c, m, perProc, bytes ? r.beff.sizes : r.beff.x, r.label, false);
        if (t) {
          traces.push(t);
        } else {
          missing.push(r.label);
        }
      });
      var first = runs[0] && runs[0].beff;
      var xaxis = bytes || !first ?
        { type: 'log', title: { text: 'message size L [bytes]' }, exponentformat: 'SI' } :
        beffXAxis(first);
      if (!bytes && first) {
        xaxis.title.text += ' (labels: sizes of the first run)';
      }
      var label = m === 'best' ? 'best of the methods' : m;
      return {
        traces: traces,
        layout: {
          title: { text: 'b_eff: ' + txt(pat) + ', ' + txt(label) },
          xaxis: xaxis,
          yaxis: logY(perProc ? 'MB/s per process (bandwidth / N)' : 'MB/s')
        }
      };
    }

    function ioTraces(runs, missing) {
      var which = $('io-partition').value;
      var ti = parseInt($('io-type').value, 10), a = parseInt($('io-access').value, 10);
      var traces = [], ticks = {};
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
        traces.push(ioTrace(r.io, part.bw[a][ti], r.label + ' (n = ' + part.n + ')'));
      });
      var xs = Object.keys(ticks).map(parseFloat).sort(function (x, y) { return x - y; });
      var chunks = xs.map(function (x) { return { x: x, tick: ticks[x] }; });
      var ts = $('io-type'), as = $('io-access');
      return {
        traces: traces,
        layout: {
          title: { text: 'b_eff_io: ' + txt(ts.options[ts.selectedIndex].textContent) + ', ' +
            txt(as.options[as.selectedIndex].textContent) },
          xaxis: ioXAxis(chunks, 'disk chunk size l (MPART: as in each run)'),
          yaxis: logY('MB/s')
        }
      };
    }

    function draw() {
      var s = suite();
      $('beff-controls').hidden = s !== 'beff';
      $('io-controls').hidden = s !== 'io';
      each(picks(), function (i) {
        i.disabled = i.getAttribute(s === 'beff' ? 'data-beff' : 'data-io') !== 'true';
      });
      var runs = picked(), missing = [];
      var p = s === 'beff' ? beffTraces(runs, missing) : ioTraces(runs, missing);
      p.layout.hovermode = 'closest';
      p.layout.margin = { t: 50, r: 10 };
      p.layout.legend = { orientation: 'h', y: -0.2 };
      Plotly.react(gd, p.traces, p.layout, plotConfig);
      var msg = runs.length + ' run' + (runs.length === 1 ? '' : 's') + ' picked';
      if (runs.length < 2) {
        msg += ': tick two or more runs below';
      }
      if (missing.length) {
        msg += '; no data for ' + missing.join(', ');
      }
      status.textContent = msg;
    }

    // Runs and suite named in the address: compare.html#runs=a,b&suite=io
    var hash = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) {
        hash[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
      }
    });
    if (hash.suite === 'io') {
      document.querySelector('input[name=suite][value=io]').checked = true;
    }
    if (hash.runs) {
      hash.runs.split(',').forEach(function (id) {
        var i = $('pick-' + id);
        if (i) {
          i.checked = true;
        }
      });
    }

    each(document.querySelectorAll('#compare-controls input, #compare-controls select'), function (el) {
      el.addEventListener('change', draw);
    });
    each(picks(), function (i) { i.addEventListener('change', draw); });
    $('zoom-reset').addEventListener('click', function () {
      Plotly.relayout(gd, { 'xaxis.autorange': true, 'yaxis.autorange': true });
    });
    function download(format) {
      Plotly.downloadImage(gd, {
        format: format, filename: 'beff-compare',
        width: gd.clientWidth || 1000, height: gd.clientHeight || 500
      });
    }
    $('dl-svg').addEventListener('click', function () { download('svg'); });
    $('dl-png').addEventListener('click', function () { download('png'); });
    draw();
  }

  // ---- index ----

  function indexPage() {
    $('compare-picked').addEventListener('click', function () {
      var ids = [];
      each(document.querySelectorAll('#runs input.pick:checked'), function (i) { ids.push(i.value); });
      location.href = 'compare.html#runs=' + ids.map(encodeURIComponent).join(',');
    });
  }

  each(document.querySelectorAll('table.sortable'), sortable);
  var page = document.body.getAttribute('data-page');
  if (page === 'run') {
    runPage();
  } else if (page === 'compare') {
    comparePage();
  } else if (page === 'index') {
    indexPage();
  }
  document.body.setAttribute('data-ready', 'true');
}());
