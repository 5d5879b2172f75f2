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

  // ranking scores the index's runs by the reader's weights (seed 002: each
  // reader defines his own weights and gets a personal ranked list): the
  // weighted geometric mean of a run's figures, each relative to the best
  // ranked run (v/best where higher is better, best/v where lower is),
  // times 100. A run without a weighted figure gets no score, nor a NOT
  // VALID run unless the reader includes those.
  function ranking() {
    var table = $('runs'), status = $('rank-status'), invalid = $('rank-invalid');
    var inputs = document.querySelectorAll('#ranking input.weight');
    var heads = {};
    each(table.tHead.rows[0].cells, function (th) {
      if (th.hasAttribute('data-rank')) {
        heads[th.getAttribute('data-rank')] = th;
      }
    });

    function weights() {
      var out = [];
      each(inputs, function (i) {
        var w = parseFloat(i.value), key = i.getAttribute('data-rank');
        if (w > 0 && isFinite(w)) {
          out.push({ key: key, w: w, lower: heads[key].getAttribute('data-better') === 'lower', label: heads[key].getAttribute('data-label') });
        }
      });
      return out;
    }

    function figure(row, key) {
      var v = row.querySelector('td[data-rank="' + key + '"]').getAttribute('data-v');
      return v === '' ? NaN : parseFloat(v);
    }

    // why is the reason row r gets no score under weights ws, or ''.
    function why(r, ws) {
      if (!ws.length) {
        return 'no figure weighted';
      }
      if (!invalid.checked && r.querySelector('td.validity').getAttribute('data-valid') !== 'true') {
        return 'NOT VALID';
      }
      var lacks = ws.filter(function (x) { return !(figure(r, x.key) > 0); });
      return lacks.length ? 'no ' + lacks.map(function (x) { return x.label; }).join(', ') : '';
    }

    function setCell(td, v, text, title) {
      td.setAttribute('data-v', v);
      td.textContent = text;
      td.title = title;
    }

    // score fills the rank and score columns; with sort, the ranked runs
    // come first, best first, the others after them in file order.
    var fileOrder = Array.prototype.slice.call(table.tBodies[0].rows);
    function score(sort) {
      var ws = weights(), rows = fileOrder;
      var ranked = rows.filter(function (r) { return !why(r, ws); });
      var best = {};
      ws.forEach(function (x) {
        var vs = ranked.map(function (r) { return figure(r, x.key); });
        best[x.key] = x.lower ? Math.min.apply(null, vs) : Math.max.apply(null, vs);
      });
      var sum = ws.reduce(function (a, x) { return a + x.w; }, 0);
      rows.forEach(function (r) {
        r.beffScore = null;
        var reason = why(r, ws);
        if (reason) {
          setCell(r.querySelector('td.score'), '', '–', reason);
          setCell(r.querySelector('td.rank'), '', '–', reason);
          return;
        }
        var log = 0;
        ws.forEach(function (x) {
          var v = figure(r, x.key);
          log += x.w * Math.log(x.lower ? best[x.key] / v : v / best[x.key]);
        });
        r.beffScore = 100 * Math.exp(log / sum);
      });
      ranked.sort(function (a, b) { return b.beffScore - a.beffScore; });
      ranked.forEach(function (r, i) {
        var rank = i > 0 && ranked[i - 1].beffScore - r.beffScore < 1e-9 ? ranked[i - 1].beffRank : i + 1;
        r.beffRank = rank;
        setCell(r.querySelector('td.score'), String(r.beffScore), r.beffScore.toPrecision(3), '');
        setCell(r.querySelector('td.rank'), String(rank), String(rank), '');
      });
      if (sort) {
        var body = table.tBodies[0];
        ranked.concat(rows.filter(function (r) { return r.beffScore === null; })).forEach(function (r) { body.appendChild(r); });
        each(table.tHead.rows[0].cells, function (c) { c.removeAttribute('aria-sort'); });
        table.tHead.querySelector('th.rank').setAttribute('aria-sort', 'ascending');
      }
      var by = ws.map(function (x) { return x.label + ' ×' + x.w; }).join(', ');
      status.textContent = ws.length ?
        ranked.length + ' of ' + rows.length + ' runs ranked by ' + by + (ranked.length < rows.length ? '; the others are marked – (hover for why)' : '') :
        'give a figure a weight above 0 to rank';
      return ws;
    }

    // rank scores, sorts and keeps the weights in the address.
    function rank() {
      var ws = score(true);
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
    score(hash.rank !== undefined);
    each(inputs, function (i) { i.addEventListener('change', rank); });
    invalid.addEventListener('change', rank);
    $('rank-apply').addEventListener('click', rank);
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
