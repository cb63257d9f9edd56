// hyprof HTML report: a small canvas renderer (as async-profiler's flame graphs), no library.
// Reads the JSON in #hyprof-data (column arrays, see org.hyprof.export.HtmlReport) and draws
// only what is visible: frames narrower than a fraction of a pixel are skipped with their subtree.
(function () {
  'use strict';
  var t0 = performance.now();
  var D = JSON.parse(document.getElementById('hyprof-data').textContent);
  var cmp = D.mode === 'compare';
  var F = D.frames;
  var WEIGHTS = ['wall', 'cpu', 'energy', 'calls'];
  var KINDS = F.kinds; // thread, method, loop, native, other_paths
  var K_THREAD = 0, K_METHOD = 1, K_LOOP = 2, K_NATIVE = 3, K_OTHER = 4, K_ALL = 5;
  var SIDES = F.sides;
  var $ = function (id) { return document.getElementById(id); };

  // ------------------------------------------------------------------ formatting
  function fmtNanos(ns) {
    if (ns >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
    if (ns >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
    if (ns >= 1e3) return (ns / 1e3).toFixed(1) + ' µs';
    return Math.round(ns) + ' ns';
  }
  function fmtNanojoules(nj) {
    if (nj >= 1e9) return (nj / 1e9).toFixed(3) + ' J';
    if (nj >= 1e6) return (nj / 1e6).toFixed(3) + ' mJ';
    if (nj >= 1e3) return (nj / 1e3).toFixed(3) + ' µJ';
    return Math.round(nj) + ' nJ';
  }
  function fmtCount(n) { return Math.round(n).toLocaleString('en-US'); }
  function fmtWeight(w, v) { return w === 'energy' ? fmtNanojoules(v) : w === 'calls' ? fmtCount(v) + ' calls' : fmtNanos(v); }
  function pct(a, b) { return b > 0 ? (100 * a / b).toFixed(2) + ' %' : '-'; }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text != null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  // ------------------------------------------------------------------ the tree
  // A tree: n frames (the last one a virtual root over the threads), parent, kind, name, depth,
  // children (CSR), and per side and weight inclusive and exclusive values.
  function makeTree(n) {
    var t = { n: n, parent: new Int32Array(n), kind: new Uint8Array(n), name: new Int32Array(n), depth: new Int32Array(n),
      incl: [], excl: [], maxDepth: 0 };
    for (var s = 0; s < SIDES; s++) {
      t.incl.push({}); t.excl.push({});
      WEIGHTS.forEach(function (w) { t.incl[s][w] = new Float64Array(n); t.excl[s][w] = new Float64Array(n); });
    }
    return t;
  }
  function finishTree(t) {
    var n = t.n, count = new Int32Array(n + 1), i;
    for (i = 0; i < n; i++) if (t.parent[i] >= 0) count[t.parent[i]]++;
    t.childStart = new Int32Array(n + 1);
    for (i = 0; i < n; i++) t.childStart[i + 1] = t.childStart[i] + count[i];
    t.children = new Int32Array(t.childStart[n]);
    var fill = t.childStart.slice(0, n);
    for (i = 0; i < n; i++) if (t.parent[i] >= 0) t.children[fill[t.parent[i]]++] = i;
    t.root = n - 1;
    t.maxDepth = 0;
    // parents may come after children only for the root: depth by walking from the root
    var stack = [t.root]; t.depth[t.root] = 0;
    while (stack.length) {
      var p = stack.pop();
      for (var c = t.childStart[p]; c < t.childStart[p + 1]; c++) {
        var k = t.children[c];
        t.depth[k] = t.depth[p] + 1;
        if (t.depth[k] > t.maxDepth) t.maxDepth = t.depth[k];
        stack.push(k);
      }
    }
    return t;
  }

  var names = F.names;
  var N = F.count;
  var T = makeTree(N + 1);
  (function load() {
    var i, s, sx;
    for (i = 0; i < N; i++) {
      T.parent[i] = F.up[i] === 0 ? N : i - F.up[i];
      T.kind[i] = F.kind[i];
      T.name[i] = F.name[i];
    }
    T.parent[N] = -1; T.kind[N] = K_ALL; T.name[N] = -1;
    for (s = 0; s < SIDES; s++) {
      sx = SIDES > 1 ? (s === 0 ? 'A' : 'B') : '';
      var calls = F['calls' + sx];
      for (i = 0; i < N; i++) {
        T.incl[s].wall[i] = F['wallIncl' + sx][i]; T.excl[s].wall[i] = F['wallExcl' + sx][i];
        T.incl[s].cpu[i] = F['cpuIncl' + sx][i]; T.excl[s].cpu[i] = F['cpuExcl' + sx][i];
        T.incl[s].energy[i] = F['energyIncl' + sx][i]; T.excl[s].energy[i] = F['energyExcl' + sx][i];
        T.excl[s].calls[i] = T.kind[i] === K_THREAD ? 0 : calls[i];
        T.incl[s].calls[i] += T.excl[s].calls[i];
      }
      // calls are not inclusive in the data: a frame's width in calls is its subtree's calls
      for (i = N - 1; i >= 0; i--) T.incl[s].calls[T.parent[i]] += T.incl[s].calls[i];
      ['wall', 'cpu', 'energy'].forEach(function (w) {
        var a = T.incl[s][w];
        for (var j = 0; j < N; j++) if (T.parent[j] === N) a[N] += a[j];
      });
    }
    finishTree(T);
  })();
  T.pruned = F.pruned;

  // the method table's row per name: confidence and p50/p99 for the tooltip
  var methodByName = {};
  (D.methods || []).forEach(function (r) { methodByName[r[0]] = r; });

  // ------------------------------------------------------------------ inverted (callers) tree
  var inverted = null;
  function buildInverted() {
    // every frame's own (exclusive) values go to the path leaf → callers → thread; values in one
    // growing flat array (a typed array per node made this 10x slower at 10^5 frames)
    var keyToNode = new Map(), parent = [-1], kind = [K_ALL], name = [-1];
    var s, w, i, j;
    var nw = WEIGHTS.length, width = SIDES * nw;
    var cap = 1024, vals = new Float64Array(cap * width), own = new Float64Array(width);
    var cols = [];
    for (s = 0; s < SIDES; s++) for (w = 0; w < nw; w++) cols.push(T.excl[s][WEIGHTS[w]]);
    for (i = 0; i < N; i++) {
      if (T.kind[i] === K_THREAD) continue;
      var any = false;
      for (j = 0; j < width; j++) { own[j] = cols[j][i]; if (own[j]) any = true; }
      if (!any) continue;
      var at = 0;
      for (j = 0; j < width; j++) vals[j] += own[j];
      for (var f = i; f >= 0 && f !== N; f = T.parent[f]) {
        var key = (at * 8 + T.kind[f]) * 2097152 + T.name[f]; // names < 2^21
        var k = keyToNode.get(key);
        if (k === undefined) {
          k = parent.length; keyToNode.set(key, k);
          parent.push(at); kind.push(T.kind[f]); name.push(T.name[f]);
          if (k >= cap) { var grown = new Float64Array(cap * 2 * width); grown.set(vals); vals = grown; cap *= 2; }
        }
        var base = k * width;
        for (j = 0; j < width; j++) vals[base + j] += own[j];
        at = k;
      }
    }
    // the virtual root must be last: renumber 0 → n-1
    var n = parent.length, t = makeTree(n);
    function idx(x) { return x === 0 ? n - 1 : x - 1; }
    for (i = 0; i < n; i++) {
      var d = idx(i);
      t.parent[d] = parent[i] < 0 ? -1 : idx(parent[i]);
      t.kind[d] = kind[i]; t.name[d] = name[i];
      for (s = 0; s < SIDES; s++) for (w = 0; w < nw; w++) {
        t.incl[s][WEIGHTS[w]][d] = vals[i * width + s * nw + w];
        // a callers' tree has no own value but at its leaves (the frames themselves)
        t.excl[s][WEIGHTS[w]][d] = parent[i] === 0 ? vals[i * width + s * nw + w] : 0;
      }
    }
    finishTree(t);
    // children by weight, heaviest first (insertion order otherwise)
    t.inverted = true;
    return t;
  }

  // ------------------------------------------------------------------ state
  var state = { tree: T, zoom: T.root, history: [], weight: 'wall', view: 'flame', colour: cmp ? 'ratio' : 'kind',
    regex: null, matchedShare: 0, drawn: 0, rects: null, drawMillis: 0 };
  var ROW = 16;
  var canvas = $('flame'), ctx = canvas.getContext('2d');

  function incl(t, i, w) { var v = 0; for (var s = 0; s < SIDES; s++) v += t.incl[s][w][i]; return v; }
  function excl(t, i, w) { var v = 0; for (var s = 0; s < SIDES; s++) v += t.excl[s][w][i]; return v; }
  function frameName(t, i) {
    if (t.kind[i] === K_ALL) return 'all threads';
    var nm = names[t.name[i]];
    return t.kind[i] === K_THREAD ? 'thread ' + nm : nm;
  }
  function hash(str) { var h = 0; for (var i = 0; i < str.length; i++) h = (h * 31 + str.charCodeAt(i)) | 0; return h >>> 0; }

  function colourOf(t, i, w) {
    var k = t.kind[i];
    if (state.regex && k !== K_ALL && state.regex.test(frameName(t, i))) return '#e040fb';
    if (k === K_ALL) return '#c8c8c8';
    if (state.colour === 'ratio') {
      var a = t.incl[0][w][i], b = t.incl[1][w][i];
      if (a === 0 && b === 0) return '#dddddd';
      if (a === 0) return 'rgb(200,30,30)';
      if (b === 0) return 'rgb(30,60,200)';
      var r = Math.max(-1, Math.min(1, Math.log2(b / a))); // ±1 = twice or half
      var m = Math.round(235 - 180 * Math.abs(r));
      return r > 0 ? 'rgb(235,' + m + ',' + m + ')' : 'rgb(' + m + ',' + m + ',235)';
    }
    if (state.colour === 'energy') {
      var total = incl(t, t.root, 'energy');
      var share = total > 0 ? incl(t, i, 'energy') / total : 0;
      var x = Math.sqrt(share);
      return 'rgb(255,' + Math.round(235 - 200 * x) + ',' + Math.round(150 - 150 * x) + ')';
    }
    var h = hash(names[t.name[i]] || '');
    switch (k) {
      case K_THREAD: return '#b0b0b0';
      case K_LOOP: return 'hsl(' + (190 + h % 30) + ',60%,' + (62 + h % 12) + '%)';
      case K_NATIVE: return 'hsl(' + (95 + h % 40) + ',55%,' + (55 + h % 12) + '%)';
      case K_OTHER: return '#b39ddb';
      default: return 'hsl(' + (h % 45) + ',85%,' + (58 + (h >> 8) % 14) + '%)';
    }
  }

  function legend() {
    var L = $('legend');
    L.textContent = '';
    var items;
    if (state.colour === 'ratio') items = [['rgb(30,60,200)', 'only in A'], ['rgb(55,55,235)', 'B ≤ A/2'], ['rgb(235,235,235)', 'B = A'],
      ['rgb(235,55,55)', 'B ≥ 2A'], ['rgb(200,30,30)', 'only in B']];
    else if (state.colour === 'energy') items = [['rgb(255,235,150)', 'little energy'], ['rgb(255,35,0)', 'most energy (share of the total)']];
    else items = [['hsl(20,85%,62%)', 'Java method'], ['hsl(200,60%,66%)', 'loop'], ['hsl(110,55%,60%)', 'native'],
      ['#b0b0b0', 'thread root'], ['#b39ddb', '(other paths)']];
    items.push(['#e040fb', 'search match']);
    items.forEach(function (it) {
      var s = el('span'), i = el('i'); i.style.background = it[0]; s.appendChild(i); s.appendChild(document.createTextNode(it[1])); L.appendChild(s);
    });
  }

  // ------------------------------------------------------------------ drawing
  function draw() {
    var start = performance.now();
    var t = state.tree, w = state.weight, z = state.zoom;
    var dpr = window.devicePixelRatio || 1;
    var cssW = canvas.clientWidth || 1200;
    var rows = t.maxDepth + 1;
    var cssH = Math.max(ROW * rows, ROW);
    if (canvas.width !== Math.round(cssW * dpr) || canvas.height !== Math.round(cssH * dpr)) {
      canvas.width = Math.round(cssW * dpr); canvas.height = Math.round(cssH * dpr);
      canvas.style.height = cssH + 'px';
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    ctx.font = '11px ui-monospace, monospace';
    ctx.textBaseline = 'middle';
    var down = state.view !== 'flame'; // icicle and inverted grow downwards
    function yOf(depth) { return down ? depth * ROW : cssH - (depth + 1) * ROW; }
    var rects = { x: [], y: [], w: [], i: [] };
    function box(i, x, width, depth) {
      var y = yOf(depth);
      ctx.fillStyle = colourOf(t, i, w);
      ctx.fillRect(x, y, Math.max(width - 0.5, 0.5), ROW - 1);
      if (width > 28) {
        ctx.fillStyle = '#000';
        var label = frameName(t, i), max = Math.floor((width - 6) / 6.6);
        if (label.length > max) label = label.substring(0, Math.max(0, max - 1)) + '…';
        ctx.fillText(label, x + 3, y + ROW / 2);
      }
      rects.x.push(x); rects.y.push(y); rects.w.push(width); rects.i.push(i);
    }
    // the zoomed frame's ancestors, full width (greyed by being the path back)
    for (var a = t.parent[z]; a >= 0; a = t.parent[a]) box(a, 0, cssW, t.depth[a]);
    var total = incl(t, z, w);
    var drawn = 0;
    if (total > 0) {
      var scale = cssW / total;
      var stackI = [z], stackX = [0];
      while (stackI.length) {
        var i = stackI.pop(), x = stackX.pop();
        var width = incl(t, i, w) * scale;
        box(i, x, width, t.depth[i]);
        drawn++;
        var cx = x;
        for (var c = t.childStart[i]; c < t.childStart[i + 1]; c++) {
          var k = t.children[c], cw = incl(t, k, w) * scale;
          if (cw >= 0.25) { stackI.push(k); stackX.push(cx); }
          cx += cw;
        }
      }
    } else {
      ctx.fillStyle = '#666';
      ctx.fillText('no ' + w + ' recorded under this frame', 8, down ? ROW * (t.depth[z] + 1.5) : cssH - ROW * (t.depth[z] + 1.5));
    }
    state.rects = rects;
    state.drawn = drawn;
    state.drawMillis = performance.now() - start;
    crumbs();
  }

  function crumbs() {
    var C = $('crumbs'), t = state.tree;
    C.textContent = '';
    var path = [];
    for (var i = state.zoom; i >= 0; i = t.parent[i]) path.unshift(i);
    path.forEach(function (i, j) {
      if (j) C.appendChild(document.createTextNode(' › '));
      var a = el('a', frameName(t, i));
      a.onclick = function () { zoomTo(i); };
      C.appendChild(a);
    });
    var z = state.zoom;
    C.appendChild(document.createTextNode('   (' + fmtWeight(state.weight, incl(t, z, state.weight)) + ', ' +
      pct(incl(t, z, state.weight), incl(t, t.root, state.weight)) + ' of the total)'));
    $('back').disabled = state.history.length === 0;
  }

  function zoomTo(i) {
    if (i === state.zoom) return;
    state.history.push(state.zoom);
    state.zoom = i;
    draw();
  }

  function hit(ev) {
    var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top, R = state.rects;
    if (!R) return -1;
    for (var j = R.i.length - 1; j >= 0; j--)
      if (x >= R.x[j] && x < R.x[j] + Math.max(R.w[j], 1) && y >= R.y[j] && y < R.y[j] + ROW) return R.i[j];
    return -1;
  }

  // ------------------------------------------------------------------ search
  function search() {
    var text = $('search').value, t = T, w = state.weight;
    state.regex = null;
    $('match').textContent = '';
    if (text) {
      try {
        state.regex = new RegExp(text);
      } catch (e) {
        $('match').textContent = 'not a regular expression: ' + e.message;
      }
    }
    if (state.regex) {
      // share of the total: matched frames not under another matched frame (no double counting)
      var inMatch = new Uint8Array(t.n), sum = 0, frames = 0;
      for (var i = 0; i < N; i++) {
        var p = t.parent[i], m = state.regex.test(names[t.name[i]]);
        if (m) frames++;
        if (m && !inMatch[p]) sum += incl(t, i, w);
        inMatch[i] = inMatch[p] || m ? 1 : 0;
      }
      state.matchedShare = incl(t, t.root, w) > 0 ? sum / incl(t, t.root, w) : 0;
      $('match').textContent = 'matched ' + (100 * state.matchedShare).toFixed(2) + ' % of the total ' + w +
        ' (' + fmtWeight(w, sum) + ', ' + frames + ' frames)';
    }
    draw();
  }

  // ------------------------------------------------------------------ tooltip
  var tip = $('tooltip');
  function threadOf(t, i) { for (; i >= 0; i = t.parent[i]) if (t.kind[i] === K_THREAD) return names[t.name[i]]; return ''; }
  function tooltipText(t, i) {
    var lines = [frameName(t, i), (t.kind[i] === K_ALL ? 'all threads' : KINDS[t.kind[i]] || '') +
      (t.inverted ? ' — callers view: figures are the own time of the frames at the top of this path' : '') +
      (t.kind[i] === K_THREAD || t.kind[i] === K_ALL ? '' : ', thread ' + threadOf(t, i))];
    var sideNames = SIDES > 1 ? ['A', 'B'] : [''];
    for (var s = 0; s < SIDES; s++) {
      var pre = SIDES > 1 ? sideNames[s] + ': ' : '';
      lines.push(pre + 'calls ' + fmtCount(t.excl[s].calls[i]) + (t.kind[i] === K_ALL || t.kind[i] === K_THREAD ? ' (subtree ' + fmtCount(t.incl[s].calls[i]) + ')' : ''));
      lines.push(pre + 'wall  incl ' + fmtNanos(t.incl[s].wall[i]) + ' (' + pct(t.incl[s].wall[i], t.incl[s].wall[t.root]) + ')  excl ' + fmtNanos(t.excl[s].wall[i]));
      if (hasCpu) lines.push(pre + 'cpu   incl ' + fmtNanos(t.incl[s].cpu[i]) + '  excl ' + fmtNanos(t.excl[s].cpu[i]));
      lines.push(pre + 'energy incl ' + fmtNanojoules(t.incl[s].energy[i]) + ' (' + pct(t.incl[s].energy[i], t.incl[s].energy[t.root]) + ')  excl ' + fmtNanojoules(t.excl[s].energy[i]));
    }
    if (SIDES > 1) {
      var a = t.incl[0][state.weight][i], b = t.incl[1][state.weight][i];
      lines.push('B/A ' + state.weight + ': ' + (a > 0 ? (b / a).toFixed(3) : b > 0 ? 'only in B' : '-'));
    }
    if (!t.inverted && i < N) {
      var sx = SIDES > 1 ? 'B' : '';
      if (F['p50' + sx] && F['p50' + sx][i]) lines.push('p50 ' + fmtNanos(F['p50' + sx][i]) + '  p99 ' + fmtNanos(F['p99' + sx][i]) + ' (this path)');
      var m = methodByName[names[t.name[i]]];
      if (m) {
        if (!(F['p50' + sx] && F['p50' + sx][i])) lines.push('p50 ' + fmtNanos(m[8]) + '  p99 ' + fmtNanos(m[9]) + ' (the method, all paths)');
        lines.push('confidence: probe share ' + (100 * m[10]).toFixed(1) + ' % of its raw time' + (m[11] > 0 ? '; ' + fmtCount(m[11]) +
          ' calls count-only (' + m[12] + ')' : '') + (m[13] ? '; ' + m[13] : ''));
      }
      if (T.pruned[i] > 0) {
        var gap = incl(t, i, state.weight) - excl(t, i, state.weight);
        for (var c = t.childStart[i]; c < t.childStart[i + 1]; c++) gap -= incl(t, t.children[c], state.weight);
        lines.push(fmtCount(T.pruned[i]) + ' small frames below pruned (' + fmtWeight(state.weight, Math.max(0, gap)) + ')');
      }
    }
    lines.push('click: zoom; Esc: back');
    return lines.join('\n');
  }
  canvas.addEventListener('mousemove', function (ev) {
    var i = hit(ev);
    if (i < 0) { tip.hidden = true; return; }
    tip.textContent = tooltipText(state.tree, i);
    tip.hidden = false;
    var x = ev.clientX + 14, y = ev.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth) x = Math.max(0, ev.clientX - tip.offsetWidth - 8);
    if (y + tip.offsetHeight > window.innerHeight) y = Math.max(0, ev.clientY - tip.offsetHeight - 8);
    tip.style.left = x + 'px'; tip.style.top = y + 'px';
  });
  canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
  canvas.addEventListener('click', function (ev) { var i = hit(ev); if (i >= 0) zoomTo(i); });
  $('back').onclick = function () { if (state.history.length) { state.zoom = state.history.pop(); draw(); } };
  $('reset').onclick = function () { if (state.zoom !== state.tree.root) zoomTo(state.tree.root); };
  document.addEventListener('keydown', function (ev) { if (ev.key === 'Escape') $('back').onclick(); });
  $('weight').onchange = function () { state.weight = this.value; search(); };
  $('colour').onchange = function () { state.colour = this.value; legend(); draw(); };
  $('search').oninput = search;
  $('view').onchange = function () {
    state.view = this.value;
    var t = state.view === 'inverted' ? (inverted || (inverted = buildInverted())) : T;
    if (t !== state.tree) { state.tree = t; state.zoom = t.root; state.history = []; }
    draw();
  };
  window.addEventListener('resize', function () { draw(); if (tl) tl.draw(); });

  // ------------------------------------------------------------------ header
  var hasCpu = false;
  function facts(h, prefix) {
    var dl = $('facts');
    function add(k, v, warn) { dl.appendChild(el('dt', (prefix || '') + k)); dl.appendChild(el('dd', v, warn ? 'warn' : null)); }
    if (h.file) add('session', h.file);
    add('program', h.program);
    add('processes', h.processes.map(function (p) {
      return p.name + ' (pid ' + p.pid + ', ' + p.status + ', ' + p.mode + ' mode' + (p.vm ? ', ' + p.vm : '') + ')';
    }).join('; ') || 'none');
    add('threads', String(h.threads));
    add('duration', h.durationMillis != null ? fmtNanos(h.durationMillis * 1e6) : 'unknown (no clean end)');
    add('calibration', h.calibration || 'none recorded');
    add('dropped events', fmtCount(h.eventDrops), h.eventDrops > 0);
    add('dropped paths', h.treeSource === 'recorded' ? fmtCount(h.otherPathsCalls) + ' calls past the node budget of ' + fmtCount(h.nodeBudget) +
      ' (in "(other paths)" frames)' : 'none (tree ' + (h.treeSource === 'events' ? 'rebuilt from the event log' : 'not recorded') + ')', h.otherPathsCalls > 0);
    add('tree', h.treeSource === 'none' ? 'this session has no calling-context tree (aggregate session recorded before hyprof kept trees)'
      : (h.treeSource === 'recorded' ? 'recorded by the runtime; times deducted' : 'rebuilt from the event log; raw times (probe cost included)'),
      h.treeSource === 'none');
    add('power model', h.power + (h.powerIsSample ? ' — a SAMPLE power profile, not a real device: energy is illustrative' : ''), h.powerIsSample);
    add('CPU time', h.cpuTime ? 'thread CPU time recorded' : 'not recorded (wall time only; energy from wall time)');
    var cpuProfiles = [];
    h.processes.forEach(function (p) {
      if (!p.native) return;
      var kv = Object.keys(p.native).map(function (k) { return k + '=' + p.native[k]; });
      cpuProfiles.push('pid ' + p.pid + ': ' + kv.join(', '));
    });
    add('CPU profile', cpuProfiles.length ? cpuProfiles.join('; ') : (h.hybrid ? 'hybrid run' : 'none (no native code ran in the emulator)'));
    h.notes.forEach(function (n) { add('note', n, true); });
    if (h.cpuTime) hasCpu = true;
  }
  if (cmp) {
    $('title').textContent = 'hyprof compare: A = ' + D.header.a.program + ', B = ' + D.header.b.program;
    facts(D.header.a, 'A ');
    facts(D.header.b, 'B ');
    $('flame-title').textContent = 'Differential flame graph (width: A + B; colour: B/A of the chosen weight)';
  } else {
    $('title').textContent = 'hyprof report: ' + D.header.program;
    facts(D.header);
  }
  (function frameFacts() {
    var dl = $('facts');
    dl.appendChild(el('dt', 'frames'));
    dl.appendChild(el('dd', fmtCount(F.count) + ' of ' + fmtCount(F.total) + ' shown; ' + fmtCount(F.prunedFrames) +
      ' pruned below ' + F.prunePercent.toPrecision(3) + ' % of the total in every weight (' + fmtNanos(F.prunedWallNanos) + ' wall, ' +
      pct(F.prunedWallNanos, F.totalWallNanos) + ')' + (F.thresholdRaised ? '; threshold raised to keep at most ' + fmtCount(F.maxFrames) + ' frames' : '')));
  })();
  $('flame-note').textContent = 'Frames narrower than a quarter pixel are not drawn (zoom in to see them). Pruned frames leave a gap under their parent; ' +
    'its tooltip says how many and how much.' + (F.count === 0 ? ' This session has no calling-context tree.' : '');
  var colourSel = $('colour');
  (cmp ? [['ratio', 'B/A'], ['kind', 'frame kind'], ['energy', 'energy']] : [['kind', 'frame kind'], ['energy', 'energy']]).forEach(function (o) {
    var opt = el('option', o[1]); opt.value = o[0]; colourSel.appendChild(opt);
  });
  colourSel.value = state.colour;
  if (!hasCpu) $('weight').querySelector('option[value=cpu]').textContent = 'CPU time (not recorded)';

  // ------------------------------------------------------------------ methods
  function escapeRegex(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }
  function showFrames(name) {
    $('search').value = '^' + escapeRegex(name) + '$';
    if (state.view === 'inverted') { $('view').value = 'flame'; $('view').onchange.call($('view')); }
    search();
    $('flame-section').scrollIntoView();
  }
  (function methods() {
    var cols, rows;
    if (cmp) {
      cols = [['method', 0, 's'], ['calls A', 1], ['calls B', 5], ['excl A', 2, 't'], ['excl B', 6, 't'], ['excl B/A', -1, 'r'],
        ['incl A', 3, 't'], ['incl B', 7, 't'], ['energy A', 4, 'e'], ['energy B', 8, 'e']];
      rows = D.methods2;
    } else {
      cols = [['method', 0, 's'], ['kind', 1, 's'], ['calls', 2], ['incl', 3, 't'], ['excl', 4, 't'], ['cpu excl', 5, 't'],
        ['energy', 6, 'e'], ['energy incl', 7, 'e'], ['p50', 8, 't'], ['p99', 9, 't'], ['probe share', 10, 'p'],
        ['count-only', 11], ['native est', 14, 't']];
      rows = D.methods;
    }
    function val(r, c) { return c[1] === -1 ? (r[2] > 0 ? r[6] / r[2] : Infinity) : r[c[1]]; }
    function cell(r, c) {
      var v = val(r, c);
      switch (c[2]) {
        case 's': return String(v);
        case 't': return v < 0 ? '' : fmtNanos(v);
        case 'e': return fmtNanojoules(v);
        case 'p': return (100 * v).toFixed(1) + ' %';
        case 'r': return v === Infinity ? 'new' : v.toFixed(3);
        default: return fmtCount(v);
      }
    }
    var sortCol = cmp ? 4 : 4, desc = true;
    var thead = document.querySelector('#methods thead'), tbody = document.querySelector('#methods tbody');
    var tr = el('tr');
    cols.forEach(function (c, j) {
      var th = el('th', c[0], j === 0 ? 'name' : null);
      th.onclick = function () { if (sortCol === j) desc = !desc; else { sortCol = j; desc = c[2] !== 's'; } render(); };
      tr.appendChild(th);
    });
    thead.appendChild(tr);
    var LIMIT = 2000;
    function render() {
      var f = $('filter').value.toLowerCase();
      var list = rows.filter(function (r) { return !f || r[0].toLowerCase().indexOf(f) >= 0; });
      var c = cols[sortCol];
      list.sort(function (x, y) {
        var a = val(x, c), b = val(y, c), r = a < b ? -1 : a > b ? 1 : 0;
        return (desc ? -r : r) || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0);
      });
      tbody.textContent = '';
      list.slice(0, LIMIT).forEach(function (r) {
        var row = el('tr');
        cols.forEach(function (col, j) {
          var td = el('td', null, j === 0 ? 'name' : null);
          if (j === 0) {
            var a = el('a', r[0]); a.title = 'show its frames in the flame graph';
            a.onclick = function () { showFrames(r[0]); };
            td.appendChild(a);
            if (!cmp && (r[11] > 0 || r[13])) td.appendChild(el('span', r[11] > 0 ? ' [count-only]' : ' [probe-dominated]', 'warn'));
          } else td.textContent = cell(r, col);
          row.appendChild(td);
        });
        tbody.appendChild(row);
      });
      Array.prototype.forEach.call(thead.querySelectorAll('th'), function (th, j) {
        th.textContent = cols[j][0] + (j === sortCol ? (desc ? ' ▼' : ' ▲') : '');
      });
      $('methods-count').textContent = list.length + ' of ' + rows.length + ' rows' + (list.length > LIMIT ? ' (first ' + LIMIT + ' shown: refine the filter)' : '');
    }
    $('filter').oninput = render;
    render();
  })();

  // ------------------------------------------------------------------ native code
  (function nativeCode() {
    var list = D['native'] || [];
    if (!list.length) return;
    $('native-section').hidden = false;
    var root = $('native');
    var palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
    list.forEach(function (m) {
      root.appendChild(el('h3', m.method + ' (pid ' + m.pid + ')'));
      root.appendChild(el('div', fmtCount(m.instructions) + ' instructions executed in ' + m.blocks + ' blocks; instruction mix:', 'note'));
      var bar = el('div', null, 'mix'), total = 0, cats = Object.keys(m.mix);
      cats.forEach(function (c) { total += m.mix[c]; });
      var legendLine = el('div', null, 'note');
      cats.forEach(function (c, j) {
        var d = el('div'); d.style.width = (total ? 100 * m.mix[c] / total : 0) + '%';
        d.style.background = palette[j % palette.length]; d.title = c + ': ' + fmtCount(m.mix[c]) + ' (' + pct(m.mix[c], total) + ')';
        bar.appendChild(d);
        var s = el('span', '■ ' + c + ' ' + pct(m.mix[c], total) + '  '); s.style.color = palette[j % palette.length];
        legendLine.appendChild(s);
      });
      root.appendChild(bar);
      root.appendChild(legendLine);
      var tbl = el('table'), head = el('tr');
      ['block', 'function', 'library', 'executions', 'instructions', 'executed', 'categories'].forEach(function (h, j) { head.appendChild(el('th', h, j < 3 ? 'name' : null)); });
      tbl.appendChild(head);
      m.hot.forEach(function (b) {
        var tr = el('tr');
        var td = el('td', null, 'name'), det = el('details');
        det.appendChild(el('summary', b.address)); det.appendChild(el('pre', b.disassembly || '(no disassembly)'));
        td.appendChild(det); tr.appendChild(td);
        tr.appendChild(el('td', b['function'], 'name')); tr.appendChild(el('td', b.library, 'name'));
        tr.appendChild(el('td', fmtCount(b.executions))); tr.appendChild(el('td', fmtCount(b.instructions)));
        tr.appendChild(el('td', fmtCount(b.executions * b.instructions))); tr.appendChild(el('td', b.categories, 'name'));
        tbl.appendChild(tr);
      });
      root.appendChild(tbl);
    });
  })();

  // ------------------------------------------------------------------ timeline
  var tl = null;
  (function timeline() {
    var TL = D.timeline;
    if (!TL || !TL.lanes.length) return;
    $('timeline-section').hidden = false;
    var c = $('timeline'), g = c.getContext('2d'), LANE_ROW = 12, GAP = 18;
    var end = 0, top = 0;
    var lanes = TL.lanes.map(function (L) {
      var maxD = 0, i, byDepth = [];
      for (i = 0; i < L.s.length; i++) {
        if (L.d[i] > maxD) maxD = L.d[i];
        if (L.e[i] > end) end = L.e[i];
        (byDepth[L.d[i]] || (byDepth[L.d[i]] = [])).push(i);
      }
      // per depth, slices do not overlap: starts and ends both ascend, so a window is two binary searches away
      var depths = byDepth.map(function (ix) {
        ix = ix || [];
        return { s: Float64Array.from(ix, function (k) { return L.s[k]; }), e: Float64Array.from(ix, function (k) { return L.e[k]; }),
          n: Int32Array.from(ix, function (k) { return L.n[k]; }) };
      });
      var lane = { name: L.thread, top: top, depths: depths, leftOut: L.leftOut };
      top += GAP + (maxD + 1) * LANE_ROW;
      return lane;
    });
    var view = { v0: 0, v1: Math.max(end, 1) };
    function lowerBound(a, x) { var lo = 0, hi = a.length; while (lo < hi) { var m = (lo + hi) >> 1; if (a[m] < x) lo = m + 1; else hi = m; } return lo; }
    function drawTimeline() {
      var dpr = window.devicePixelRatio || 1, W = c.clientWidth || 1200, H = Math.max(top, 40);
      if (c.width !== Math.round(W * dpr) || c.height !== Math.round(H * dpr)) {
        c.width = Math.round(W * dpr); c.height = Math.round(H * dpr); c.style.height = H + 'px';
      }
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.clearRect(0, 0, W, H);
      g.font = '10px ui-monospace, monospace';
      g.textBaseline = 'middle';
      var scale = W / (view.v1 - view.v0), drawnSlices = 0;
      lanes.forEach(function (L) {
        g.fillStyle = '#333';
        g.fillText(L.name + (L.leftOut ? '  (' + fmtCount(L.leftOut) + ' later calls left out)' : ''), 2, L.top + GAP / 2);
        L.depths.forEach(function (D2, d) {
          var y = L.top + GAP + d * LANE_ROW, i = lowerBound(D2.e, view.v0), lastPx = -1;
          while (i < D2.s.length && D2.s[i] <= view.v1) {
            var x0 = (D2.s[i] - view.v0) * scale, x1 = (D2.e[i] - view.v0) * scale;
            if (x1 - x0 < 1 && Math.floor(x0) <= lastPx) {
              // sub-pixel and this pixel is drawn: jump to the first slice starting in the next pixel
              i = Math.max(i + 1, lowerBound(D2.s, view.v0 + (lastPx + 1) / scale));
              continue;
            }
            var nm = TL.names[D2.n[i]];
            g.fillStyle = 'hsl(' + (hash(nm) % 45) + ',80%,' + (60 + d % 3 * 6) + '%)';
            var xs = Math.max(x0, 0), w = Math.max(1, Math.min(x1, W) - xs);
            g.fillRect(xs, y, w, LANE_ROW - 1);
            if (w > 40) { g.fillStyle = '#000'; g.fillText(nm.length * 6 > w ? nm.substring(0, Math.floor(w / 6)) : nm, xs + 2, y + LANE_ROW / 2); }
            lastPx = Math.floor(xs + w - 1);
            drawnSlices++;
            i++;
          }
        });
      });
      $('tl-range').textContent = fmtNanos(view.v0) + ' – ' + fmtNanos(view.v1) + ' (' + fmtNanos(view.v1 - view.v0) + ' shown, ' + drawnSlices + ' slices drawn)';
      tl.drawnSlices = drawnSlices;
    }
    function zoom(f, at) {
      var span = view.v1 - view.v0, p = at == null ? 0.5 : at, mid = view.v0 + span * p, ns = Math.max(span * f, 1000);
      view.v0 = Math.max(0, mid - ns * p); view.v1 = Math.min(Math.max(end, 1), view.v0 + ns);
      drawTimeline();
    }
    tl = { draw: drawTimeline, view: view, zoom: zoom, drawnSlices: 0 };
    c.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      var r = c.getBoundingClientRect();
      zoom(ev.deltaY > 0 ? 1.25 : 0.8, (ev.clientX - r.left) / r.width);
    }, { passive: false });
    var drag = null;
    c.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, v0: view.v0, v1: view.v1 }; });
    window.addEventListener('mouseup', function () { drag = null; });
    c.addEventListener('mousemove', function (ev) {
      if (drag) {
        var dt = (drag.x - ev.clientX) * (drag.v1 - drag.v0) / c.clientWidth;
        dt = Math.max(-drag.v0, Math.min(dt, Math.max(end, 1) - drag.v1));
        view.v0 = drag.v0 + dt; view.v1 = drag.v1 + dt; drawTimeline(); return;
      }
      var r = c.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top, t = view.v0 + x * (view.v1 - view.v0) / r.width;
      tip.hidden = true;
      lanes.forEach(function (L) {
        var d = Math.floor((y - L.top - GAP) / LANE_ROW), D2 = L.depths[d];
        if (d < 0 || !D2) return;
        var i = lowerBound(D2.e, t);
        if (i < D2.s.length && D2.s[i] <= t) {
          tip.textContent = TL.names[D2.n[i]] + '\n' + L.name + '\nstart ' + fmtNanos(D2.s[i]) + '  duration ' + fmtNanos(D2.e[i] - D2.s[i]);
          tip.hidden = false; tip.style.left = (ev.clientX + 14) + 'px'; tip.style.top = (ev.clientY + 14) + 'px';
        }
      });
    });
    c.addEventListener('mouseleave', function () { tip.hidden = true; });
    $('tl-in').onclick = function () { zoom(0.5); };
    $('tl-out').onclick = function () { zoom(2); };
    $('tl-reset').onclick = function () { view.v0 = 0; view.v1 = Math.max(end, 1); drawTimeline(); };
    $('timeline-note').textContent = fmtCount(TL.calls) + ' calls' + (TL.leftOut ? ', ' + fmtCount(TL.leftOut) +
      ' left out (at most ' + fmtCount(TL.perThreadLimit) + ' per thread, the first ones)' : '') +
      '. Times are from the first call of the session. Calls narrower than a pixel are drawn one pixel per column.';
    drawTimeline();
  })();

  // ------------------------------------------------------------------ start
  legend();
  draw();
  var firstDraw = performance.now();

  /** For tests and the curious: what is on screen. */
  window.hyprof = {
    scriptMillis: firstDraw - t0,
    /** Milliseconds from navigation start to the end of the first flame-graph draw. */
    readyMillis: firstDraw,
    state: function () {
      var t = state.tree, R = state.rects, widths = {};
      for (var j = 0; j < R.i.length; j++) if (t.depth[R.i[j]] === t.depth[state.zoom] + 1) widths[frameName(t, R.i[j])] = R.w[j];
      return { zoom: frameName(t, state.zoom), zoomDepth: t.depth[state.zoom], weight: state.weight, view: state.view,
        drawn: state.drawn, drawMillis: state.drawMillis, matched: $('match').textContent, matchedShare: state.matchedShare,
        childWidths: widths, frames: F.count, timelineSlices: tl ? tl.drawnSlices : -1 };
    },
    /** The CSS-pixel box (relative to the canvas) of the widest drawn frame whose name matches {@code pattern}, or null. */
    frameRect: function (pattern) {
      var re = new RegExp(pattern), R = state.rects, best = -1;
      for (var j = 0; j < R.i.length; j++)
        if (state.tree.kind[R.i[j]] !== K_ALL && re.test(frameName(state.tree, R.i[j])) && (best < 0 || R.w[j] > R.w[best])) best = j;
      return best < 0 ? null : { x: R.x[best], y: R.y[best], width: R.w[best], height: ROW };
    }
  };
  document.body.setAttribute('data-ready', 'true');
})();
