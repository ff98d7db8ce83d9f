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

  /* A node's one link opens; several (a step's rulings) are offered in a menu. */
  function follow(box, node) {
    var links = node.data("links") || [];
    if (links.length === 1) { window.location.href = links[0].url; return; }
    if (links.length === 0) { return; }
    var menu = box.querySelector(".rk-graph-menu") || document.createElement("div");
    menu.className = "rk-graph-menu";
    menu.setAttribute("role", "menu");
    menu.textContent = "";
    var title = document.createElement("p");
    title.textContent = node.data("name") + ":";
    menu.appendChild(title);
    links.forEach(function (link) {
      var a = document.createElement("a");
      a.href = link.url; a.textContent = link.text; a.setAttribute("role", "menuitem");
      menu.appendChild(a);
    });
    var close = document.createElement("button");
    close.type = "button"; close.textContent = "Close";
    close.addEventListener("click", function () { menu.remove(); });
    menu.appendChild(close);
    var p = node.renderedPosition();
    menu.style.left = Math.max(0, Math.min(p.x, box.querySelector(".rk-graph").clientWidth - 220)) + "px";
    menu.style.top = (p.y + 10) + "px";
    box.querySelector(".rk-graph-frame").appendChild(menu);
    menu.querySelector("a").focus();
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
    }
    var all = box.querySelector(".rk-graph-fit");
    if (all) {
      all.addEventListener("click", function () {
        if (find) { find.value = ""; }
        cy.elements().removeClass("rk-faded");
        cy.viewport(holder.rkStart);
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
