/* Search, as the theme's search worker answers it, with two changes:
   - on a game's pages the reader can limit the results to that game (a tick box above the results);
   - a page whose title has the words typed as they are typed, in full, comes first, then one whose title has each
     of them in full, then the others, in the theme's order otherwise:
     the theme matches each word as the start of a longer one, so "Battle In" would find the pages about Injury
     before the "Battle In" rulings.
   - until the index is loaded, the results say so ("Loading the search index…"), not "Type to start searching";
   - on an Ask page, the worker builds its index once the engine has answered (or could not load), or as soon as the
     reader searches: until then the engine, loading in its own worker, has the processor to itself.
   The theme talks to its worker in messages (a query, then its results): this script, run before the theme's,
   sees each query and orders (and, limited to a game, filters) its results. */
(function () {
  "use strict";
  var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;  // the theme's message types
  var Native = window.Worker;
  var scope = null;  // the folder of the game search is limited to, when it is
  var asked = [];  // the queries sent and not yet answered, oldest first: the worker answers them in turn

  function text(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html || "";
    return holder.textContent.toLowerCase();
  }

  function escaped(word) { return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  /* 0: the title has the words as typed, not as the start of a longer name or id ("zb.battle.compare", not
     "zb.battle.compare-who-wins"); 1: as typed (each in full, in turn); 2: each of them in full; 3: not all of them. */
  function tier(title, words) {
    var whole = function (pattern) { return new RegExp("(^|[^a-z0-9])" + pattern + "($|[^a-z0-9])").test(title); };
    var phrase = words.map(escaped).join("[^a-z0-9]+");
    if (new RegExp("(^|[^a-z0-9.-])" + phrase + "(?![a-z0-9-]|\\.[a-z0-9])").test(title)) { return 0; }
    if (whole(phrase)) { return 1; }
    return words.every(function (word) { return whole(escaped(word)); }) ? 2 : 3;
  }

  function first(item) { return Array.isArray(item) ? item[0] : item; }

  function location(item) {
    var page = first(item);
    return page && typeof page.location === "string" ? page.location : "";
  }

  function ordered(items, query) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) { return items; }
    var tiers = [[], [], [], []];
    items.forEach(function (item) { tiers[tier(text(first(item) && first(item).title), words)].push(item); });
    return tiers[0].concat(tiers[1], tiers[2], tiers[3]);
  }

  var answered = new WeakMap();  // each answer as the theme's listeners see it: one query answered per message

  function scoped(event) {
    if (!answered.has(event)) { answered.set(event, answer(event)); }
    return answered.get(event);
  }

  function answer(event) {
    var message = event.data;
    if (message && message.type === READY) { document.documentElement.setAttribute("data-rk-search-ready", ""); }
    if (!message || message.type !== RESULT || !message.data || !Array.isArray(message.data.items)) { return event; }
    var query = asked.length ? asked.shift() : "";
    document.documentElement.setAttribute("data-rk-searched", query);  // the query last answered
    var items = ordered(message.data.items, query).filter(function (item) { return !scope || location(item).indexOf(scope + "/") === 0; });
    var data = Object.assign({}, message.data, { items: items });
    if (typeof data.total === "number") { data.total = items.length; }
    return { data: { type: RESULT, data: data }, target: event.target };
  }

  window.Worker = function (url, options) {
    var worker = new Native(url, options);
    var listen = worker.addEventListener.bind(worker);
    var post = worker.postMessage.bind(worker);
    worker.addEventListener = function (type, listener, more) {
      if (type !== "message" || typeof listener !== "function") { return listen(type, listener, more); }
      return listen(type, function (event) { return listener.call(this, scoped(event)); }, more);
    };
    var send = function (message, transfer) { return transfer === undefined ? post(message) : post(message, transfer); };
    var held = null;  // on an Ask page: the setup message, until the engine has answered or the reader searches
    var searching = false;  // the reader has been in the search box
    var release = function () {
      if (held) { var setup = held; held = null; send(setup[0], setup[1]); }
    };
    worker.postMessage = function (message, transfer) {
      searching = searching || Boolean(document.activeElement && document.activeElement.matches(".md-search__input"));
      if (message && message.type === SETUP && document.getElementById("rk-ask-data") && !searching && !engineDone()) {
        held = [message, transfer];
        whenEngineDone(release);
        return undefined;
      }
      release();
      if (message && message.type === QUERY) { asked.push(String(message.data)); }
      return send(message, transfer);
    };
    document.addEventListener("focusin", function (event) {
      if (event.target && event.target.matches && event.target.matches(".md-search__input")) { searching = true; release(); }
    });
    window.rkSearchWorker = worker;
    return worker;
  };
  window.Worker.prototype = Native.prototype;

  /* Whether the Ask page's engine has answered once, or cannot load (ask.js marks both on <html>). */
  function engineDone() {
    var html = document.documentElement;
    return html.hasAttribute("data-rk-ask-asked") || html.getAttribute("data-rk-ask") === "unavailable";
  }

  function whenEngineDone(then) {
    var watching = new MutationObserver(function () {
      if (engineDone()) { watching.disconnect(); then(); }
    });
    watching.observe(document.documentElement, { attributes: true, attributeFilter: ["data-rk-ask", "data-rk-ask-asked"] });
  }

  /* The game whose pages these are: the first folder of the page's address under the site, if the navigation
     has an entry for it, and the game's title. */
  function currentGame() {
    var config = document.getElementById("__config");
    var base = new URL(config ? JSON.parse(config.textContent).base : ".", window.location.href);
    var path = window.location.pathname;
    if (path.indexOf(base.pathname) !== 0) { return null; }
    var folder = path.slice(base.pathname.length).split("/")[0];
    if (!folder) { return null; }
    var home = new URL(folder + "/", base).href;
    var entry = Array.prototype.find.call(document.querySelectorAll(".md-nav__link[href]"), function (a) {
      return a.href === home;
    });
    if (!entry) { return null; }
    /* A game's entry is a section (its overview, its Ask page): the section's title is the game's. */
    var section = entry.closest(".md-nav__item--nested");
    var heading = section && section.querySelector(".md-nav__link");
    return { folder: folder, title: (heading || entry).textContent.trim() };
  }

  /* The tick box, above the results, on a game's pages only. */
  function offerScope() {
    scope = null;
    var game = currentGame();
    var output = document.querySelector(".md-search__output");
    var old = document.querySelector(".rk-search-scope");
    if (old) { old.remove(); }
    if (!game || !output) { return; }
    var label = document.createElement("label");
    label.className = "rk-search-scope";
    var tick = document.createElement("input");
    tick.type = "checkbox";
    tick.checked = window.sessionStorage.getItem("rk-search-scope") === "1";
    label.appendChild(tick);
    label.appendChild(document.createTextNode(" Only " + game.title));
    output.insertBefore(label, output.firstChild);
    scope = tick.checked ? game.folder : null;
    tick.addEventListener("change", function () {
      scope = tick.checked ? game.folder : null;
      window.sessionStorage.setItem("rk-search-scope", tick.checked ? "1" : "0");
      var worker = window.rkSearchWorker;
      var input = document.querySelector(".md-search__input");
      if (worker && input && input.value.trim()) { worker.postMessage({ type: QUERY, data: input.value }); }
    });
  }

  document.addEventListener("DOMContentLoaded", offerScope, { once: true });
})();
