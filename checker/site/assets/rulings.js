/* Rulings website: interaction and procedure graphs (Cytoscape.js), copy buttons.
 *
 * Positions come with the data, computed when the site was built: nothing is laid out here.
 * Cytoscape.js is loaded only on a page that has a graph, after the page is shown. A graph
 * is inert until the reader asks to explore it, so a swipe or the wheel over it scrolls the page.
 */
(function () {
  "use strict";

  var FONT = 12;            /* label size at zoom 1 (checker/site/layout.py) */
  var SMALLEST_TEXT = 11;   /* no label starts smaller than this, in CSS pixels */
  var READABLE = SMALLEST_TEXT / FONT;
  var LARGEST_START = 1.1;  /* a small graph is not blown up beyond this */
  var PADDING = 14;
  var TONES = 8;
  var here = document.currentScript;
  var LIBRARY = here ? here.src.replace(/rulings\.js(\?.*)?$/, "vendor/cytoscape.min.js") : "";
  var FINE_POINTER = window.matchMedia("(hover: hover) and (pointer: fine)");

  /* Colours live in rulings.css (light and dark); the graph reads them from its box. */
  function palette(box) {
    var css = window.getComputedStyle(box);
    var read = function (name) { return css.getPropertyValue(name).trim(); };
    var colours = {
      text: read("--rk-graph-text"), background: read("--rk-graph-background"), edge: read("--rk-graph-edge"),
      flow: read("--rk-graph-flow"), step: read("--rk-graph-step"), stepText: read("--rk-graph-step-text"),
      phase: read("--rk-graph-phase"), phaseBorder: read("--rk-graph-phase-border"), focus: read("--rk-graph-focus"),
      kinds: []
    };
    for (var tone = 0; tone < TONES; tone++) { colours.kinds.push(read("--rk-kind-" + tone)); }
    return colours;
  }

  function style(c) {
    return [
      { selector: "node", style: {
        "label": "data(label)", "text-wrap": "wrap", "text-max-width": 400, "font-size": FONT, "color": c.text,
        "text-valign": "bottom", "text-margin-y": 4, "min-zoomed-font-size": 6,
        "text-background-color": c.background, "text-background-opacity": 0.75, "text-background-padding": 1,
        "background-color": function (n) { return c.kinds[n.data("tone") || 0]; }
      } },
      { selector: "node[size]", style: { "width": "data(size)", "height": "data(size)" } },
      { selector: "node[shape]", style: { "shape": "data(shape)" } },
      { selector: "node[?focus]", style: { "border-width": 4, "border-color": c.focus, "font-weight": "bold" } },
      { selector: ".rk-fan-leaf", style: { "label": "data(short)", "text-valign": "center", "text-halign": "right",
        "text-margin-y": 0, "text-margin-x": 6 } },
      { selector: "node[kind = 'step']", style: {
        "shape": "round-rectangle", "width": 210, "height": "data(height)", "text-valign": "center", "text-margin-y": 0,
        "text-max-width": 200, "background-color": c.step, "color": c.stepText, "text-background-opacity": 0
      } },
      { selector: "node[kind = 'phase']", style: {
        "shape": "round-rectangle", "background-color": c.phase, "background-opacity": 1, "text-valign": "top",
        "text-margin-y": -4, "font-size": 13, "font-weight": "bold", "border-width": 1, "border-color": c.phaseBorder,
        "padding": 10, "text-background-opacity": 0
      } },
      { selector: "edge", style: {
        "width": function (e) { return 1 + Math.min(4, (e.data("scenarios") || 1) - 1); },
        "line-color": c.edge, "curve-style": "straight", "opacity": 0.8
      } },
      { selector: "edge.rk-hover", style: {
        "label": "data(label)", "font-size": FONT, "color": c.text, "text-background-color": c.background,
        "text-background-opacity": 1, "line-color": c.focus, "opacity": 1, "z-index": 10
      } },
      { selector: "edge.rk-flow", style: { "target-arrow-shape": "triangle", "line-color": c.flow, "width": 2,
        "target-arrow-color": c.flow, "opacity": 1, "curve-style": "bezier" } },
      { selector: "edge.rk-flow[label]", style: { "label": "data(label)", "font-size": FONT, "color": c.text,
        "text-wrap": "wrap", "text-max-width": 400, "text-background-color": c.background, "text-background-opacity": 1,
        "text-background-padding": 2 } },
      { selector: "edge.rk-condition[label]", style: { "label": "", "target-label": "data(label)", "font-size": FONT,
        "target-text-offset": function (e) { return 12 + 7.5 * e.data("label").split("\n").length; } } },
      { selector: "edge.rk-return", style: { "line-style": "dashed", "curve-style": "segments", "segment-weights": "0 1",
        "source-endpoint": "outside-to-node", "target-endpoint": "outside-to-node", "text-halign": "right" } },
      { selector: "edge.rk-loop", style: { "loop-direction": "90deg", "loop-sweep": "-25deg",
        "control-point-step-size": 100, "text-margin-x": 20 } },
      { selector: ".rk-added", style: { "border-width": 2, "border-style": "dashed", "border-color": c.text } },
      { selector: ".rk-hidden", style: { "display": "none" } },
      { selector: ".rk-faded", style: { "opacity": 0.15 } }
    ];
  }

  /* The widest drawing the column shows with readable labels, else the narrowest. */
  function chooseDrawing(drawings, width) {
    var sorted = drawings.slice().sort(function (a, b) { return a.width - b.width; });
    var chosen = sorted[0];
    sorted.forEach(function (d) { if ((width - 2 * PADDING) / d.width >= READABLE) { chosen = d; } });
    return chosen;
  }

  function elements(data, drawing) {
    var nodes = data.elements.nodes.map(function (n) {
      var p = drawing.positions[n.data.id];
      var copy = { data: n.data, classes: n.classes || "" };
      if (p) { copy.position = { x: p[0], y: p[1] }; }
      if (data.graph === "fan" && !n.data.focus) { copy.classes += " rk-fan-leaf"; }
      return copy;
    });
    return nodes.concat(data.elements.edges);
  }

  function draw(box) {
    var holder = box.querySelector(".rk-graph");
    var data = JSON.parse(holder.querySelector(".rk-graph-data").textContent);
    var drawing = chooseDrawing(data.drawings, holder.clientWidth);
    var cy = cytoscape({
      container: holder, elements: elements(data, drawing), style: style(palette(box)),
      layout: { name: "preset", fit: false }, minZoom: 0.2, maxZoom: 3,
      userPanningEnabled: false, userZoomingEnabled: false, boxSelectionEnabled: false, autoungrabify: true
    });
    cy.elements().panify();  /* nodes never move: a drag that starts on one pans the picture */
    routeReturns(cy);
    holder.rkGraph = cy;
    holder.rkStart = startView(cy, holder);
    if (data.expand) { holder.rkExpand = expander(box, cy, data.expand); }
    cy.on("tap", "node", function (event) { follow(box, event.target); });
    hovering(box, cy);
    controls(box, cy);
    explore(box, cy);
  }

  /* An arrow back up the flowchart runs beside it, in its own lane. */
  function routeReturns(cy) {
    cy.edges(".rk-return").forEach(function (edge) {
      var lane = edge.data("lane");
      var outside = lane - edge.source().position("x");
      edge.style({ "segment-distances": [outside, outside], "text-margin-x": 8 + edge.data("label").split("\n")
        .reduce(function (w, line) { return Math.max(w, line.length); }, 0) * 3.6 });
    });
  }

  /* Zoom so the labels read at SMALLEST_TEXT pixels at the least, and make the box as tall as the picture: never
     cut off (the page scrolls past it; the picture is inert until the reader explores it). */
  function startView(cy, holder) {
    var bounds = cy.elements().boundingBox({ includeLabels: true, includeOverlays: false });
    var width = holder.clientWidth;
    var zoom = Math.max(READABLE, Math.min(LARGEST_START, (width - 2 * PADDING) / bounds.w));
    /* Room below the picture for the cover's words. */
    holder.style.height = Math.round(bounds.h * zoom + 2 * PADDING + 30) + "px";
    cy.resize();
    var left = Math.max(PADDING, (width - bounds.w * zoom) / 2);
    var view = { zoom: zoom, pan: { x: left - bounds.x1 * zoom, y: PADDING - bounds.y1 * zoom } };
    cy.viewport(view);
    return view;
  }

  /* A node's one link opens; several (a step's rulings) are offered in a menu, and so is a node of a graph the
     reader can expand: its page, or its neighbours not drawn. */
  function follow(box, node) {
    var links = node.data("links") || [];
    var expand = box.querySelector(".rk-graph").rkExpand;
    if (links.length === 1 && !expand) { window.location.href = links[0].url; return; }
    if (links.length === 0) { return; }
    var menu = box.querySelector(".rk-graph-menu") || document.createElement("div");
    menu.className = "rk-graph-menu";
    menu.setAttribute("role", "menu");
    menu.textContent = "";
    var title = document.createElement("p");
    title.textContent = expand ? describeNode(node) : node.data("name") + ":";
    menu.appendChild(title);
    links.forEach(function (link) {
      var a = document.createElement("a");
      a.href = link.url; a.textContent = expand ? "Open its page" : link.text; a.setAttribute("role", "menuitem");
      menu.appendChild(a);
    });
    var close = document.createElement("button");
    close.type = "button"; close.textContent = "Close";
    var closeMenu = function () {
      menu.remove();
      var find = box.querySelector(".rk-graph-find");
      if (find) { find.focus(); }
    };
    close.addEventListener("click", closeMenu);
    menu.addEventListener("keydown", function (event) { if (event.key === "Escape") { closeMenu(); } });
    menu.appendChild(close);
    if (expand) { expand.offer(menu, node, close); }
    var p = node.renderedPosition();
    menu.style.left = Math.max(0, Math.min(p.x, box.querySelector(".rk-graph").clientWidth - 220)) + "px";
    menu.style.top = (p.y + 10) + "px";
    box.querySelector(".rk-graph-frame").appendChild(menu);
    menu.querySelector("a").focus();
  }

  /* A game's overview the reader expands: a node's neighbours not drawn are added around it, never more than
     ``most`` cards and concepts in all (graphs.py MOST_SHOWN); to make room, the neighbours added first go first,
     the least of them first. "Show fewer" returns to what was shown before the last expansion, "Reset" to the
     overview. The whole network comes from a JSON file beside the page, fetched when first needed. New nodes
     take the nearest free spots around the node, within the width the column shows at a readable size, and the
     picture is then fitted again. */
  function expander(box, cy, expand) {
    var holder = box.querySelector(".rk-graph");
    var overview = {};
    cy.nodes().forEach(function (n) { overview[n.id()] = true; });
    var extents = {};  /* each node's shape and label around its position, measured while it is drawn */
    cy.nodes().forEach(function (n) { extents[n.id()] = extent(n); });
    var first = cy.elements().boundingBox({ includeLabels: true });
    var expansions = [];  /* in order: {id, most}, the node expanded and how many neighbours it may add at most */
    var before = [];  /* the expansions before each of the reader's, for Show fewer */
    var loading = null;
    var controls = box.querySelector(".rk-graph-controls");
    var status = document.createElement("p");
    status.className = "rk-graph-status";
    status.setAttribute("role", "status");
    var fewer = document.createElement("button");
    fewer.type = "button"; fewer.className = "rk-graph-fewer"; fewer.textContent = "Show fewer"; fewer.disabled = true;
    fewer.addEventListener("click", function () { expansions = before.pop() || []; show(); });
    controls.appendChild(fewer);
    controls.appendChild(status);

    function network() {
      if (!loading) {
        loading = fetch(new URL(expand.network, window.location.href).href).then(function (r) { return r.json(); })
          .then(function (net) {
            net.byId = {}; net.edgesOf = {};
            net.nodes.forEach(function (n) { net.byId[n.id] = n; net.edgesOf[n.id] = []; });
            net.edges.forEach(function (e) { net.edgesOf[e.source].push(e); net.edgesOf[e.target].push(e); });
            return net;
          });
      }
      return loading;
    }

    /* What the expansions show, in order: each adds its node's neighbours not shown yet, while there is room;
       an expansion whose node is no longer shown goes. */
    function shownFor(net, list) {
      var shown = Object.assign({}, overview), count = Object.keys(overview).length, added = [], kept = [], got = {};
      list.forEach(function (expansion) {
        var id = expansion.id;
        if (!shown[id]) { return; }
        var hidden = net.neighbours[id].filter(function (other) { return !shown[other]; });
        var taken = hidden.slice(0, Math.max(0, Math.min(expansion.most, expand.most - count)));
        taken.forEach(function (other) { shown[other] = true; added.push({ id: other, by: id }); });
        count += taken.length;
        kept.push(expansion);
        got[id] = { added: taken.length, left: hidden.length - taken.length };
      });
      return { shown: shown, count: count, added: added, kept: kept, got: got };
    }

    function expandNode(id) {
      return network().then(function (net) {
        before.push(expansions);
        var list = expansions.filter(function (other) { return other.id !== id; }).concat([{ id: id, most: Infinity }]);
        for (var at = 0; at < list.length - 1;) {  /* the oldest expansions give up their last neighbours to make room */
          var now = shownFor(net, list);
          if (!now.got[id] || now.got[id].left === 0) { break; }
          var giving = now.got[list[at].id] ? now.got[list[at].id].added : 0;
          var trimmed = list.slice(0, at)
            .concat(giving > 1 ? [{ id: list[at].id, most: giving - 1 }] : [], list.slice(at + 1));
          var then = shownFor(net, trimmed);
          if (then.got[id] && then.got[id].added > now.got[id].added) { list = trimmed; } else { at++; }
        }
        expansions = shownFor(net, list).kept;
        return show();
      });
    }

    function show() {
      return network().then(function (net) {
        var now = shownFor(net, expansions);
        expansions = now.kept;
        cy.nodes().filter(function (n) { return !now.shown[n.id()]; }).remove();
        var left = first.x1 - Math.max(0, (holder.clientWidth - 2 * PADDING) / READABLE - first.w) / 2;
        var right = first.x2 + (first.x1 - left);
        now.added.forEach(function (item) {
          if (cy.getElementById(item.id).nonempty()) { return; }
          var anchor = cy.getElementById(item.by).position();
          var node = cy.add({ group: "nodes", data: net.byId[item.id], classes: "rk-added",
            position: { x: anchor.x, y: anchor.y } });
          node.panify();
          extents[item.id] = extents[item.id] || extent(node);
          node.position(freeSpot(cy, extents, item.id, anchor, left, right));
        });
        var edges = [];
        cy.nodes().forEach(function (n) {
          net.edgesOf[n.id()].forEach(function (e) {
            if (now.shown[e.source] && now.shown[e.target] && cy.getElementById(e.id).empty()) {
              edges.push({ group: "edges", data: e });
            }
          });
        });
        cy.add(edges);
        holder.rkApply();
        var find = box.querySelector(".rk-graph-find");
        if (find) { find.value = ""; }
        cy.elements().removeClass("rk-faded");
        holder.rkStart = startView(cy, holder);
        fewer.disabled = before.length === 0;
        var last = expansions.length ? expansions[expansions.length - 1].id : null;
        var more = last && now.got[last].left ? ", " + now.got[last].left + " more on its page" : "";
        status.textContent = now.count + " of " + net.nodes.length + " cards and concepts shown"
          + (last ? "; the neighbours of " + net.byId[last].name + " added, outlined" + more : "") + ".";
        holder.setAttribute("data-rk-shown", String(now.count));
      });
    }

    /* The menu's action for a node: show its neighbours not drawn, when it has any. */
    function offer(menu, node, closeButton) {
      var button = document.createElement("button");
      button.type = "button"; button.setAttribute("role", "menuitem"); button.textContent = "Show its neighbours…";
      button.disabled = true;
      menu.insertBefore(button, closeButton);
      network().then(function (net) {
        var hidden = (net.neighbours[node.id()] || []).filter(function (id) { return cy.getElementById(id).empty(); });
        button.textContent = hidden.length ? "Show its neighbours (" + hidden.length + " not drawn)"
          : "Its neighbours are all drawn";
        button.disabled = hidden.length === 0;
      });
      button.addEventListener("click", function () {
        menu.remove();
        expandNode(node.id()).then(function () { fewer.focus(); });
      });
    }

    function reset() { expansions = []; before = []; return show(); }

    return { offer: offer, expand: expandNode, reset: reset };
  }

  /* How far a node's shape and label reach around its position. */
  function extent(node) {
    var b = node.boundingBox({ includeLabels: true }), p = node.position();
    return { left: p.x - b.x1, right: b.x2 - p.x, top: p.y - b.y1, bottom: b.y2 - p.y };
  }

  /* The free spot nearest ``anchor`` for node ``id`` (away from the picture's middle first), between ``left`` and
     ``right``, where neither its shape nor its label meets another node's. */
  function freeSpot(cy, extents, id, anchor, left, right) {
    var GAP = 6, size = extents[id];
    var taken = cy.nodes().filter(function (n) { return n.id() !== id; }).map(function (n) {
      var p = n.position(), e = extents[n.id()];
      return { x1: p.x - e.left - GAP, x2: p.x + e.right + GAP, y1: p.y - e.top - GAP, y2: p.y + e.bottom + GAP };
    });
    var middle = cy.nodes().boundingBox();
    var start = Math.atan2(anchor.y - (middle.y1 + middle.y2) / 2, anchor.x - (middle.x1 + middle.x2) / 2);
    function free(x, y) {
      if (x - size.left < left || x + size.right > right) { return false; }
      return taken.every(function (t) {
        return t.x2 <= x - size.left || t.x1 >= x + size.right || t.y2 <= y - size.top || t.y1 >= y + size.bottom;
      });
    }
    for (var ring = 1; ring <= 200; ring++) {
      var radius = 24 * ring, steps = Math.max(8, Math.round(2 * Math.PI * radius / 24));
      for (var k = 0; k < steps; k++) {
        var angle = start + (k % 2 ? -1 : 1) * Math.ceil(k / 2) * 2 * Math.PI / steps;
        var x = anchor.x + radius * Math.cos(angle), y = anchor.y + radius * Math.sin(angle);
        if (free(x, y)) { return { x: x, y: y }; }
      }
    }
    var lowest = taken.reduce(function (low, t) { return Math.max(low, t.y2); }, anchor.y);
    return { x: Math.min(Math.max(anchor.x, left + size.left), right - size.right), y: lowest + size.top };
  }

  /* The full name (and what an edge stands for) where the pointer rests. */
  function hovering(box, cy) {
    var tip = document.createElement("div");
    tip.className = "rk-graph-tip";
    tip.hidden = true;
    box.querySelector(".rk-graph-frame").appendChild(tip);
    cy.on("mouseover", "node, edge", function (event) {
      var target = event.target;
      var text = target.isNode() ? describeNode(target) : target.data("label") + " · " + target.data("scenarios") + " scenario(s)";
      if (!text) { return; }
      if (target.isEdge()) { target.addClass("rk-hover"); }
      tip.textContent = text;
      var p = event.renderedPosition || target.renderedPosition();
      tip.style.left = Math.round(p.x + 12) + "px";
      tip.style.top = Math.round(p.y + 12) + "px";
      tip.hidden = false;
    });
    cy.on("mouseout", "node, edge", function (event) { event.target.removeClass("rk-hover"); tip.hidden = true; });
    cy.on("viewport", function () { tip.hidden = true; });
  }

  function describeNode(node) {
    var kind = node.data("kind");
    if (kind === "phase") { return node.data("name"); }
    if (kind === "step") {
      return [node.data("name"), node.data("when"), node.data("condition") ? "only if " + node.data("condition") : ""]
        .concat(node.data("rules") || [])
        .concat([(node.data("links") || []).map(function (l) { return l.text; }).join(", ")]).filter(Boolean).join(" · ");
    }
    var degree = node.data("degree");
    return node.data("name") + " (" + kind + ") · " + degree + (degree === 1 ? " interaction" : " interactions");
  }

  /* Kind filters: a kind unticked hides its nodes, and the nodes then left without an edge. A filter that would
     leave nothing drawn is undone, and the last kind ticked cannot be unticked: the graph is never emptied. */
  function controls(box, cy) {
    var ticks = Array.prototype.slice.call(box.querySelectorAll(".rk-graph-kinds input[type=checkbox]"));
    function apply() {
      var shown = {};
      ticks.forEach(function (t) { shown[t.value] = t.checked; });
      cy.batch(function () {
        cy.elements().removeClass("rk-hidden");
        cy.nodes().filter(function (n) { return shown[n.data("kind")] === false; }).addClass("rk-hidden");
        cy.edges().filter(function (e) { return e.source().hasClass("rk-hidden") || e.target().hasClass("rk-hidden"); })
          .addClass("rk-hidden");
        cy.nodes().filter(function (n) {
          return !n.data("focus") && n.connectedEdges().filter(function (e) { return !e.hasClass("rk-hidden"); }).length === 0;
        }).addClass("rk-hidden");
      });
    }
    function guard() {
      var ticked = ticks.filter(function (t) { return t.checked; });
      ticks.forEach(function (t) { t.disabled = ticked.length === 1 && t.checked; });
    }
    box.querySelector(".rk-graph").rkApply = apply;
    ticks.forEach(function (tick) {
      tick.addEventListener("change", function () {
        apply();
        if (!tick.checked && cy.nodes().filter(function (n) { return !n.hasClass("rk-hidden"); }).length === 0) {
          tick.checked = true;
          apply();
        }
        guard();
      });
    });
    guard();
    var find = box.querySelector(".rk-graph-find");
    var holder = box.querySelector(".rk-graph");
    if (find) {
      find.addEventListener("input", function () {
        var wanted = find.value.trim().toLowerCase();
        cy.elements().removeClass("rk-faded");
        if (!wanted) { cy.viewport(holder.rkStart); return; }
        var match = cy.nodes(":visible").filter(function (n) { return String(n.data("name")).toLowerCase().indexOf(wanted) >= 0; });
        if (match.length === 0) { return; }
        var near = match.closedNeighborhood();
        cy.elements().not(near).addClass("rk-faded");
        cy.fit(near, 30);
        if (cy.zoom() < READABLE) { cy.zoom({ level: READABLE, renderedPosition: match[0].renderedPosition() }); cy.center(match[0]); }
      });
      /* Enter does what a tap on the first node found does: its page, or its menu. */
      find.addEventListener("keydown", function (event) {
        if (event.key !== "Enter") { return; }
        event.preventDefault();
        var wanted = find.value.trim().toLowerCase();
        var match = cy.nodes(":visible").filter(function (n) {
          return wanted && String(n.data("name")).toLowerCase().indexOf(wanted) >= 0;
        });
        if (match.length) { follow(box, match[0]); }
      });
    }
    var all = box.querySelector(".rk-graph-fit");
    if (all) {
      all.addEventListener("click", function () {
        if (find) { find.value = ""; }
        cy.elements().removeClass("rk-faded");
        if (holder.rkExpand) { holder.rkExpand.reset(); } else { cy.viewport(holder.rkStart); }
      });
    }
  }

  /* The graph pans and zooms only while the reader explores it; the cover button starts and ends that. */
  function explore(box, cy) {
    var cover = box.querySelector(".rk-graph-cover");
    var holder = box.querySelector(".rk-graph");
    var idle = FINE_POINTER.matches ? "Click to zoom and pan" : "Tap to explore";
    cover.textContent = idle;
    cover.addEventListener("click", function () {
      var active = !box.classList.contains("rk-exploring");
      box.classList.toggle("rk-exploring", active);
      cover.setAttribute("aria-pressed", String(active));
      cover.textContent = active ? "Done exploring" : idle;
      cy.userPanningEnabled(active);
      cy.userZoomingEnabled(active);
      if (!active) { cy.viewport(holder.rkStart); }
    });
  }

  /* Colours follow the light or dark scheme, the system's or the one the reader picked. */
  function followScheme(boxes) {
    var restyle = function () {
      boxes.forEach(function (box) {
        var cy = box.querySelector(".rk-graph").rkGraph;
        if (cy) { cy.style(style(palette(box))); routeReturns(cy); }
      });
    };
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", restyle);
    new MutationObserver(restyle).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  function loadLibrary(done) {
    if (window.cytoscape) { done(); return; }
    var script = document.createElement("script");
    script.src = LIBRARY;
    script.async = true;
    script.onload = done;
    document.head.appendChild(script);
  }

  function drawAll() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll(".rk-graph-box"));
    if (boxes.length === 0) { return; }
    loadLibrary(function () {
      var next = 0;
      /* One graph per task, so the page stays responsive while they are drawn. */
      (function drawNext() {
        if (next < boxes.length) { draw(boxes[next++]); window.setTimeout(drawNext, 0); return; }
        followScheme(boxes);
        document.documentElement.setAttribute("data-rk-graphs", "drawn");
        if (window.performance && performance.mark) { performance.mark("rk-graphs-drawn"); }
      })();
    });
  }

  function copyButtons() {
    document.querySelectorAll(".rk-copy").forEach(function (button) {
      button.addEventListener("click", function () {
        var text = button.parentNode.querySelector("code").textContent;
        navigator.clipboard.writeText(text).then(function () { button.textContent = "Copied"; });
      });
    });
  }

  /* What the theme leaves out for keyboards and screen readers: a name for the search dialog, and a way to reach
     (and so scroll) a code block or a table wider than the column. */
  function reachable() {
    document.querySelectorAll(".md-search[role=dialog]").forEach(function (dialog) { dialog.setAttribute("aria-label", "Search"); });
    document.querySelectorAll(".md-typeset pre > code, .md-typeset table").forEach(function (wide) {
      if (!wide.hasAttribute("tabindex")) { wide.setAttribute("tabindex", "0"); }
    });
  }

  reachable();
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(function () { window.setTimeout(reachable, 0); }); }
  drawAll();
  copyButtons();
})();
