/* Rulings website: the pair picker of a game page ("what happens when X meets Y"). */
(function () {
  "use strict";

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text) { node.textContent = text; }
    if (className) { node.className = className; }
    return node;
  }

  function link(url, text) {
    var a = element("a", text);
    a.href = url;
    return a;
  }

  /* The question scenario for two entities: the template of the page, filled as checker/site/pairs.py fills it. */
  function question(data, a, b) {
    var cards = [a.card, b.card].filter(function (line) { return line; });
    var tokens = {
      id: a.slug + "-meets-" + b.slug, a: a.label, b: b.label,
      tags: "[" + a.name + ", " + b.name + "]",
      cards: cards.length ? "cards:\n" + cards.join("\n") + "\n" : ""
    };
    return Object.keys(tokens).reduce(function (text, token) {
      return text.split("{" + token + "}").join(tokens[token]);
    }, data.template);
  }

  function copyBlock(text) {
    var box = element("div", "", "rk-code");
    var button = element("button", "Copy", "rk-copy");
    button.type = "button";
    button.title = "Copy to clipboard";
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(text).then(function () { button.textContent = "Copied"; });
    });
    var pre = element("pre");
    pre.appendChild(element("code", text, "language-yaml"));
    box.appendChild(button);
    box.appendChild(pre);
    return box;
  }

  function noScenarioYet(data, a, b, answer) {
    var line = element("p", "", "rk-no-scenario");
    line.appendChild(document.createTextNode("No scenario yet makes "));
    line.appendChild(link(a.url, a.label));
    line.appendChild(document.createTextNode(" and "));
    line.appendChild(link(b.url, b.label));
    line.appendChild(document.createTextNode(" interact."));
    answer.appendChild(line);
    var open = data.questionKinds.indexOf(a.kind) >= 0 && data.questionKinds.indexOf(b.kind) >= 0;
    answer.appendChild(element("p", open
      ? "It is an open question: no scenario answers it yet."
      : "Neither page lists it as an open question: entities of this kind meet others through the scenarios on their pages."));
    if (open) {  // for contributors: folded away from a player's path
      var folded = element("details", "", "rk-contribute");
      folded.appendChild(element("summary", "For contributors: a question scenario to start from"));
      folded.appendChild(element("p", "Leave out expect: and the engine answers it."));
      folded.appendChild(copyBlock(question(data, a, b)));
      answer.appendChild(folded);
    }
  }

  /* The picker's data is fetched once, when the reader first focuses or uses it: the game page shows sooner. */
  function loader(form) {
    var pending = null;
    return function () {
      if (!pending) { pending = fetch(form.dataset.pairs).then(function (response) { return response.json(); }); }
      return pending;
    };
  }

  function picker(form) {
    var data = loader(form);
    var answer = form.querySelector(".rk-pair-answer");
    form.addEventListener("focusin", function () { data(); });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var first = form.querySelector(".rk-pair-a").value;
      var second = form.querySelector(".rk-pair-b").value;
      answer.textContent = "";
      if (first === "" || second === "" || first === second) {
        answer.appendChild(element("p", "Pick two different entities."));
        return;
      }
      var low = Math.min(+first, +second), high = Math.max(+first, +second);
      data().then(function (pairs) {
        var page = pairs.pairs[low + "-" + high];
        if (page) {
          window.location.href = page;
          return;
        }
        noScenarioYet(pairs, pairs.entities[low], pairs.entities[high], answer);
      });
    });
    if (/^#pair=/.test(window.location.hash)) { data().then(function (pairs) { openFromFragment(form, pairs); }); }
  }

  /* '#pair=<slug>--<slug>' (links from entity pages' open questions) picks that pair and asks. */
  function openFromFragment(form, data) {
    var wanted = /^#pair=([a-z0-9-]+?)--([a-z0-9-]+)$/.exec(window.location.hash);
    if (!wanted) { return; }
    var slugs = data.entities.map(function (entity) { return entity.slug; });
    var first = slugs.indexOf(wanted[1]), second = slugs.indexOf(wanted[2]);
    if (first < 0 || second < 0) { return; }
    form.querySelector(".rk-pair-a").value = String(first);
    form.querySelector(".rk-pair-b").value = String(second);
    form.requestSubmit();
    form.scrollIntoView();
  }

  document.querySelectorAll("form.rk-pairs").forEach(picker);
})();
