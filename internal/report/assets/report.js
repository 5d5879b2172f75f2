// report.js: the glue code of a site written by `beff report`. It sorts the
// tables, and draws the plots of a run's page and of the comparison page
// with plotly.js through the suites' drawing code, which the site appends
// to this file: each suite registers itself with beffReport.register.
// Every label from the results files stays text: DOM text is set with
// textContent, and labels given to plotly (which reads a subset of HTML in
// them) are entity-escaped with txt. The data comes from the JSON in the
// page's <script type="application/json"> element (internal/report/page.go
// and each suite's plot data).
//
// A suite registers {key, run, compare}: run(data) draws the plots of its
// section of a run page from its data; compare.init(runs) fills its
// controls on the comparison page and compare.traces(runs, missing)
// returns {traces, layout} of the runs picked (pushing the labels of runs
// without data to missing).
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

  // logY is a logarithmic y axis. Over less than two decades of the
  // traces' values its minor ticks carry whole numbers ("2k", not "2");
  // over more, only the powers of ten are labelled, so that labels never
  // run into each other.
  function logY(title, traces) {
    var lo = Infinity, hi = 0;
    (traces || []).forEach(function (t) {
      (t.y || []).forEach(function (v) {
        if (v > 0) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      });
    });
    var wide = hi > 0 && hi / lo >= 100;
    return { type: 'log', title: { text: title }, minorloglabels: wide ? 'none' : 'complete' };
  }

  // style is the i-th of 60 curve styles no two of which look alike:
  // twenty colours, each curve of a plot of up to twenty its own, then
  // the twenty again with the next dash and marker (dashes: the three
  // dashes, default solid, dash, long dash).
  var palette = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
    '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf',
    '#000080', '#006d2c', '#b8860b', '#800000', '#6a3d9a',
    '#ff1493', '#2f4f4f', '#00bfff', '#8b008b', '#556b2f'];
  function style(i, dashes) {
    dashes = dashes || ['solid', 'dash', 'longdash'];
    var k = Math.floor(i / palette.length) % dashes.length;
    return { colour: palette[i % palette.length], dash: dashes[k], mark: ['circle', 'square', 'triangle-up'][k] };
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

  // ---- the suites ----

  var suites = []; // in the order they registered (the order of the site)

  function register(s) { suites.push(s); }

  function bySuite(key) {
    return suites.filter(function (s) { return s.key === key; })[0];
  }

  // ---- a run's page ----

  function runPage() {
    var d = pageData('run-data');
    suites.forEach(function (s) {
      if (d[s.key]) {
        s.run(d[s.key]);
      }
    });
  }

  // ---- comparison ----

  function comparePage() {
    var d = pageData('compare-data');
    var byId = {};
    d.runs.forEach(function (r) { byId[r.id] = r; });
    var gd = $('compare-plot');
    var status = $('compare-status');
    suites.forEach(function (s) { s.compare.init(d.runs); });

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

    function draw() {
      if (!suites.length) {
        status.textContent = 'no suite of these runs has plots';
        return;
      }
      var key = suite();
      suites.forEach(function (s) { $(s.key + '-controls').hidden = s.key !== key; });
      each(picks(), function (i) {
        i.disabled = i.getAttribute('data-' + key) !== 'true';
      });
      var runs = picked(), missing = [];
      var p = bySuite(key).compare.traces(runs, missing);
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
    var hash = hashParams();
    each(document.querySelectorAll('input[name=suite]'), function (r) {
      if (r.value === hash.suite) {
        r.checked = true;
      }
    });
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

  // hashParams reads the page address's fragment: #a=1&b=x,y.
  function hashParams() {
    var out = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) {
        out[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
      }
    });
    return out;
  }

  // ---- ranking (index) ----

  // ranking ranks the systems of the index by the reader's weights (seed
  // 002: each reader defines his own weights and gets a personal ranked
  // list of all clusters). A system is a machine as its runs name it (hosts
  // with their processes, and the MPI library: the row's data-system); its
  // figure is the median over its runs that have it, from VALID runs of the
  // figure's suite only unless the reader includes the others. Its score is the weighted geometric
  // mean of its figures, each relative to the best ranked system (v/best
  // where higher is better, best/v where lower is), times 100. A system
  // without a weighted figure is not ranked.
  function ranking() {
    var runs = Array.prototype.slice.call($('runs').tBodies[0].rows);
    var status = $('rank-status'), invalid = $('rank-invalid'), out = $('rank-table');
    var inputs = document.querySelectorAll('#ranking input.weight');
    var heads = {};
    each($('runs').tHead.rows[0].cells, function (th) {
      if (th.hasAttribute('data-rank')) {
        heads[th.getAttribute('data-rank')] = th;
      }
    });

    function weights() {
      var ws = [];
      each(inputs, function (i) {
        var w = parseFloat(i.value), key = i.getAttribute('data-rank'), th = heads[key];
        if (w > 0 && isFinite(w)) {
          ws.push({ key: key, w: w, lower: th.getAttribute('data-better') === 'lower',
            label: th.getAttribute('data-label'), unit: th.querySelector('.unit').textContent });
        }
      });
      return ws;
    }

    // figure is run's value of a figure, NaN where it has none or (unless
    // the reader includes them) where the run of the figure's suite is NOT
    // VALID.
    function figure(run, key) {
      var td = run.querySelector('td[data-rank="' + key + '"]'), v = td.getAttribute('data-v');
      if (v === '' || (!invalid.checked && td.getAttribute('data-valid') !== 'true')) {
        return NaN;
      }
      return parseFloat(v);
    }

    function median(vs) {
      vs = vs.slice().sort(function (a, b) { return a - b; });
      var m = vs.length >> 1;
      return vs.length % 2 ? vs[m] : (vs[m - 1] + vs[m]) / 2;
    }

    // systems gathers, per system in the order of the index, the runs used
    // and the median of each weighted figure.
    function systems(ws) {
      var by = {}, list = [];
      runs.forEach(function (r) {
        var key = r.getAttribute('data-system'), s = by[key];
        if (!s) {
          s = by[key] = { label: r.getAttribute('data-system-label'), runs: [], values: {} };
          list.push(s);
        }
        var used = false;
        s.invalid = s.invalid || {};
        ws.forEach(function (x) {
          var v = figure(r, x.key);
          if (v > 0) {
            (s.values[x.key] = s.values[x.key] || []).push(v);
            used = true;
          } else if (r.querySelector('td[data-rank="' + x.key + '"]').getAttribute('data-v') !== '') {
            s.invalid[x.key] = true; // there, but in a NOT VALID run
          }
        });
        if (used) {
          s.runs.push(r.getAttribute('data-run'));
        }
      });
      list.forEach(function (s) {
        s.fig = {};
        s.lacks = ws.filter(function (x) { return !s.values[x.key]; }).map(function (x) {
          return s.invalid[x.key] ? x.label + ' in a VALID run (tick "include NOT VALID runs")' : x.label;
        });
        ws.forEach(function (x) {
          if (s.values[x.key]) {
            s.fig[x.key] = median(s.values[x.key]);
          }
        });
      });
      return list;
    }

    function cell(tr, text, cls, title) {
      var td = document.createElement('td');
      td.textContent = text;
      if (cls) {
        td.className = cls;
      }
      if (title) {
        td.title = title;
      }
      tr.appendChild(td);
      return td;
    }

    function head(ws) {
      var tr = document.createElement('tr');
      ['rank', 'system', 'runs'].concat(ws.map(function (x) { return x.label + ' [' + x.unit + '] ×' + x.w; }), ['score', 'not ranked because'])
        .forEach(function (h) {
          var th = document.createElement('th');
          th.scope = 'col';
          th.textContent = h;
          tr.appendChild(th);
        });
      out.tHead.textContent = '';
      out.tHead.appendChild(tr);
    }

    function score() {
      var ws = weights(), list = systems(ws);
      var ranked = ws.length ? list.filter(function (s) { return !s.lacks.length; }) : [];
      var sum = ws.reduce(function (a, x) { return a + x.w; }, 0);
      ws.forEach(function (x) {
        var vs = ranked.map(function (s) { return s.fig[x.key]; });
        var best = x.lower ? Math.min.apply(null, vs) : Math.max.apply(null, vs);
        ranked.forEach(function (s) {
          s.log = (s.log || 0) + x.w * Math.log(x.lower ? best / s.fig[x.key] : s.fig[x.key] / best);
        });
      });
      ranked.forEach(function (s) { s.score = 100 * Math.exp(s.log / sum); });
      ranked.sort(function (a, b) { return b.score - a.score; });
      head(ws);
      var body = out.tBodies[0];
      body.textContent = '';
      ranked.forEach(function (s, i) {
        s.rank = i > 0 && ranked[i - 1].score - s.score < 1e-9 ? ranked[i - 1].rank : i + 1;
      });
      ranked.concat(list.filter(function (s) { return ranked.indexOf(s) < 0; })).forEach(function (s) {
        var tr = document.createElement('tr'), on = ranked.indexOf(s) >= 0;
        cell(tr, on ? String(s.rank) : '–', 'num rank');
        cell(tr, s.label, 'system');
        cell(tr, String(s.runs.length), 'num', s.runs.join('\n'));
        ws.forEach(function (x) {
          var v = s.fig[x.key];
          cell(tr, v === undefined ? '–' : v.toPrecision(5), 'num').setAttribute('data-v', v === undefined ? '' : String(v));
        });
        cell(tr, on ? s.score.toPrecision(3) : '–', 'num score').setAttribute('data-v', on ? String(s.score) : '');
        cell(tr, on ? '' : (ws.length ? 'no ' + s.lacks.join(', ') : 'no figure weighted'), 'why');
        body.appendChild(tr);
      });
      status.textContent = ws.length ?
        ranked.length + ' of ' + list.length + ' systems ranked by ' + ws.map(function (x) { return x.label + ' ×' + x.w; }).join(', ') :
        'give a figure a weight above 0 to rank';
      return ws;
    }

    // rank scores and keeps the weights in the address.
    function rank() {
      var ws = score();
      var h = 'rank=' + ws.map(function (x) { return x.key + ':' + x.w; }).join(',') + (invalid.checked ? '&invalid=1' : '');
      try {
        history.replaceState(null, '', '#' + h);
      } catch (e) {
        location.hash = h;
      }
    }

    var hash = hashParams();
    if (hash.rank !== undefined) {
      var given = {};
      hash.rank.split(',').forEach(function (kw) {
        var i = kw.lastIndexOf(':');
        if (i > 0) {
          given[kw.slice(0, i)] = kw.slice(i + 1);
        }
      });
      each(inputs, function (i) { i.value = given[i.getAttribute('data-rank')] || '0'; });
      invalid.checked = hash.invalid === '1';
      $('ranking').open = true;
    }
    score();
    each(inputs, function (i) { i.addEventListener('change', rank); });
    invalid.addEventListener('change', rank);
    $('rank-reset').addEventListener('click', function () {
      each(inputs, function (i) { i.value = i.getAttribute('data-default'); });
      invalid.checked = false;
      rank();
    });
  }

  // ---- index ----

  function indexPage() {
    $('compare-picked').addEventListener('click', function () {
      var ids = [];
      each(document.querySelectorAll('#runs input.pick:checked'), function (i) { ids.push(i.value); });
      location.href = 'compare.html#runs=' + ids.map(encodeURIComponent).join(',');
    });
    ranking();
  }

  // folds: a plot drawn while its section was folded is sized when the
  // section opens, and a link to something folded opens what holds it.
  function folds() {
    each(document.querySelectorAll('details'), function (d) {
      d.addEventListener('toggle', function () {
        if (d.open) {
          each(d.querySelectorAll('.plot'), function (p) {
            if (p.data) {
              Plotly.Plots.resize(p);
            }
          });
        }
      });
    });
    function reveal() {
      var el = location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      for (var d = el && el.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) {
        d.open = true;
      }
    }
    window.addEventListener('hashchange', reveal);
    reveal();
  }

  // noPlots says in place of every plot that it is not drawn: the site
  // was written by a beff built without the plotting library.
  function noPlots() {
    each(document.querySelectorAll('.plot'), function (p) {
      p.classList.add('noplot');
      p.textContent = 'Plot not drawn: this site was written by a beff built without its plotting library ' +
        '(plotly.js). The tables and the protocol are all here; to see the plots, run make assets, ' +
        'build beff again and run beff report again.';
    });
  }

  function start() {
    each(document.querySelectorAll('table.sortable'), sortable);
    folds();
    var page = document.body.getAttribute('data-page');
    if (!window.Plotly && page !== 'index') {
      noPlots();
    } else if (page === 'run') {
      runPage();
    } else if (page === 'compare') {
      comparePage();
    } else if (page === 'index') {
      indexPage();
    }
    document.body.setAttribute('data-ready', 'true');
  }

  window.beffReport = {
    $: $, each: each, txt: txt, option: option, logY: logY, style: style, colours: palette.length, plotConfig: plotConfig,
    register: register, start: start
  };
}());
