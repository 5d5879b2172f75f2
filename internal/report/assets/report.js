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
    var hash = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) {
        hash[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
      }
    });
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

  // ---- index ----

  function indexPage() {
    $('compare-picked').addEventListener('click', function () {
      var ids = [];
      each(document.querySelectorAll('#runs input.pick:checked'), function (i) { ids.push(i.value); });
      location.href = 'compare.html#runs=' + ids.map(encodeURIComponent).join(',');
    });
  }

  function start() {
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
  }

  window.beffReport = {
    $: $, each: each, txt: txt, option: option, logY: logY, plotConfig: plotConfig,
    register: register, start: start
  };
}());
