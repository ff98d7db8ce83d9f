/* Rulings website: interaction and procedure graphs (Cytoscape.js), copy buttons. */
(function () {
  "use strict";

  /* Entity colours come with the data (per game kind); procedure nodes have their own. */
  var PROCEDURE = { step: "#1565c0", phase: "#eceff1" };

  function colour(node) {
    return node.data("colour") || PROCEDURE[node.data("kind")] || "#757575";
  }

  function style() {
    return [
      { selector: "node", style: {
        "label": "data(label)", "background-color": colour, "color": "#212121",
        "font-size": 11, "text-valign": "bottom", "text-margin-y": 4, "min-zoomed-font-size": 7,
        "width": function (n) { return 14 + Math.min(26, 2 * Math.sqrt(n.data("degree") || 1)); },
        "height": function (n) { return 14 + Math.min(26, 2 * Math.sqrt(n.data("degree") || 1)); }
      } },
      { selector: "node[?focus]", style: { "border-width": 4, "border-color": "#d50000" } },
      { selector: "node[kind = 'step']", style: {
        "shape": "round-rectangle", "width": 200, "height": 56, "text-valign": "center", "text-margin-y": 0,
        "text-wrap": "wrap", "text-max-width": 185, "color": "#ffffff", "font-size": 12,
        "min-zoomed-font-size": 0
      } },
      { selector: "$node > node", style: { "padding": 18 } },
      { selector: "node[kind = 'phase']", style: {
        "shape": "round-rectangle", "background-color": "#eceff1", "text-valign": "top", "text-margin-y": -6,
        "font-size": 14, "font-weight": "bold", "border-width": 1, "border-color": "#90a4ae"
      } },
      { selector: "edge", style: {
        "width": function (e) { return 1 + Math.min(5, (e.data("scenarios") || 1) - 1); },
        "line-color": "#b0bec5", "curve-style": "bezier", "opacity": 0.8
      } },
      { selector: "edge[label]:selected, edge.rk-hover", style: {
        "label": "data(label)", "font-size": 10, "text-background-color": "#ffffff", "text-background-opacity": 1
      } },
      { selector: "edge.rk-flow", style: { "target-arrow-shape": "triangle", "line-color": "#546e7a", "width": 2,
        "target-arrow-color": "#546e7a" } },
      { selector: "edge.rk-flow[label]", style: { "label": "data(label)", "font-size": 10,
        "text-background-color": "#fafafa", "text-background-opacity": 1 } },
      { selector: "edge.rk-return", style: { "line-style": "dashed", "curve-style": "unbundled-bezier",
        "control-point-distances": [-160], "control-point-weights": [0.5] } },
      { selector: "edge.rk-loop", style: { "loop-direction": "90deg", "loop-sweep": "-60deg", "control-point-step-size": 70 } },
      { selector: ".rk-faded", style: { "opacity": 0.12 } }
    ];
  }

  function draw(box) {
    var holder = box.querySelector(".rk-graph");
    var data = JSON.parse(holder.querySelector(".rk-graph-data").textContent);
    var procedure = data.layout === "procedure";
    var cy = cytoscape({
      container: holder,
      elements: data.elements,
      style: style(),
      minZoom: 0.1,
      maxZoom: 4,
      layout: { name: "preset", fit: procedure, padding: 20 }
    });
    holder.rkAll = { nodes: cy.nodes(), edges: cy.edges(), hidden: data.hidden || [] };
    if (!procedure) { show(cy, holder.rkAll); }
    cy.on("tap", "node", function (event) {
      var target = event.target.data("url");
      if (target) { window.location.href = target; }
    });
    cy.on("mouseover", "edge", function (event) { event.target.addClass("rk-hover"); });
    cy.on("mouseout", "edge", function (event) { event.target.removeClass("rk-hover"); });
    holder.rkGraph = cy;
    controls(box, cy);
  }

  /* Show the nodes whose kind is not hidden, the edges between them, and lay them out. */
  function show(cy, all) {
    var kept = {};
    cy.elements().remove();
    all.nodes.filter(function (n) { return all.hidden.indexOf(n.data("kind")) < 0; })
      .forEach(function (n) { kept[n.id()] = true; n.restore(); });
    all.edges.filter(function (e) { return kept[e.data("source")] && kept[e.data("target")]; })
      .forEach(function (e) { e.restore(); });
    cy.elements().layout({ name: "cose", animate: false, randomize: true, gravity: 0.3, nodeOverlap: 20,
                   nodeRepulsion: function () { return 60000; },
                   idealEdgeLength: function () { return 110; }, padding: 20, fit: true }).run();
  }

  function controls(box, cy) {
    var kinds = box.querySelector(".rk-graph-kinds");
    var all = box.querySelector(".rk-graph").rkAll;
    if (kinds) {
      var seen = {};
      all.nodes.forEach(function (n) { seen[n.data("kind")] = true; });
      Object.keys(seen).sort().forEach(function (kind) {
        var label = document.createElement("label");
        var box_ = document.createElement("input");
        box_.type = "checkbox"; box_.value = kind;
        box_.checked = all.hidden.indexOf(kind) < 0;
        box_.addEventListener("change", function () {
          all.hidden = all.hidden.filter(function (k) { return k !== kind; });
          if (!box_.checked) { all.hidden.push(kind); }
          show(cy, all);
        });
        label.appendChild(box_);
        label.appendChild(document.createTextNode(" " + kind));
        kinds.appendChild(label);
      });
    }
    var find = box.querySelector(".rk-graph-find");
    if (find) {
      find.addEventListener("input", function () {
        var wanted = find.value.trim().toLowerCase();
        cy.elements().removeClass("rk-faded");
        if (!wanted) { cy.fit(undefined, 20); return; }
        var match = cy.nodes().filter(function (n) { return String(n.data("label")).toLowerCase().indexOf(wanted) === 0; });
        if (match.length === 0) { return; }
        var near = match.closedNeighborhood();
        cy.elements().not(near).addClass("rk-faded");
        cy.fit(near, 40);
      });
    }
    var fit = box.querySelector(".rk-graph-fit");
    if (fit) { fit.addEventListener("click", function () { cy.fit(undefined, 20); }); }
  }

  function copyButtons() {
    document.querySelectorAll(".rk-copy").forEach(function (button) {
      button.addEventListener("click", function () {
        var text = button.parentNode.querySelector("code").textContent;
        navigator.clipboard.writeText(text).then(function () { button.textContent = "Copied"; });
      });
    });
  }

  document.querySelectorAll(".rk-graph-box").forEach(draw);
  copyButtons();
})();
