// The Ask page of a game: the reader sets up a situation, plays what the rules allow, and reads the engine's verdict.
// The engine is the project's own, run in this browser by ask-engine.js; this module only shows what it answers.
// <html data-rk-ask> says where the page stands: "loading", "busy", "ready" or "unavailable";
// data-rk-ask-shown is there once a first verdict is (the theme's scripts wait for it); data-rk-ask-asked counts the
// answers shown in full.
import { startEngine } from "./ask-engine.js";

const data = JSON.parse(document.getElementById("rk-ask-data").textContent);
const root = new URL(data.root, location.href).href;
const gamePage = new URL(`${data.game}/`, root).href;
const $ = (id) => document.getElementById(id);
const html = document.documentElement;
const LABELS = { pass: "PASS", fail: "FAIL", question: "ANSWER", invalid: "INVALID", error: "ERROR" };
/** What the status line says once the engine has played the scenario, by its verdict. */
const SAID = {
  pass: "Checked: what the scenario expects follows from the rules (PASS).",
  fail: "Checked: what the scenario expects does not follow from the rules (FAIL). See where below.",
  question: "Answered: the engine played it by the rules; the answer is below.",
  error: "The engine could not play this scenario (ERROR): see the message below.",
};
const SLUG = /^[a-z0-9][a-z0-9.-]*$/;

let engine = null;
let YAML = null; // the yaml library, once loadYaml() has loaded it
let yamlLoading = null;
let text = ""; // the scenario, as the editor and every answer hold it
let fromTitle = "";
let asked = 0;

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") made.textContent = value;
    else made.setAttribute(name, value);
  }
  made.append(...children);
  return made;
}

function state(where) {
  html.dataset.rkAsk = where;
  for (const button of document.querySelectorAll("#rk-ask button")) button.disabled = where === "busy";
  const entity = where === "busy" ? null : chosen();
  if (entity && !entity.card) $("rk-ask-put").disabled = true;  // a rule concept is not put into a state
}

/** The yaml library, loaded when first needed: once the first answer is shown. While the engine loads, the page
 * leaves its thread and its downloads to it (the library is some eighty modules). */
function loadYaml() {
  yamlLoading ??= import("./vendor/yaml/index.js").then((module) => { YAML = module; }, (error) => {
    yamlLoading = null;
    throw new Error(`the page's YAML library could not be loaded: ${error && error.message ? error.message : error}`);
  });
  return yamlLoading;
}

function say(message) {
  $("rk-ask-status").textContent = message;
}

// --- Where the engine cannot run: a sentence, and the command line instead -------------------------------------------

function unavailable(reason) {
  state("unavailable");
  $("rk-ask").hidden = true;
  $("rk-ask-unavailable").hidden = false;
  const why = reason && reason.message ? reason.message : String(reason || "");
  say("The engine cannot run in this browser, so this page cannot answer here; the command line below gives the same answers.");
  $("rk-ask-why").textContent = why ? `Why: ${why}` : "";
}

// --- Asking ----------------------------------------------------------------------------------------------------------

/** Put what ``making`` gives in the editor and show the engine's answer: ``making`` gives the scenario's text, or
 * ``{text, verdict}`` for a text already asked about (fetchAndAsk). */
async function change(making, message) {
  state("busy");
  say(message || "Asking the engine…");
  try {
    const made = await making();
    text = typeof made === "string" ? made : made.text;
    const asked = typeof made === "string" ? engine.ask(text, "ask.yaml", false) : made.verdict; // the engine works while the editor is filled
    $("rk-ask-text").value = text;
    numberLines();
    const verdict = await asked;
    show(verdict, true); // at once; what the rules allow next and the readings follow
    await loadYaml();
    const valid = verdict.result && verdict.result.verdict !== "invalid";
    show({ ...verdict, options: verdict.result ? await engine.options(text) : null, readings: valid ? await engine.readings(text) : null });
  } catch (error) {
    say(`The engine could not answer: ${error && error.message ? error.message : error}`);
  } finally {
    state("ready");
  }
}

function askAgain(message) {
  return change(async () => text, message);
}

function parsed() {
  try {
    const value = YAML.parse(text);
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

function show(answer, pending = false) {
  showErrors(answer.errors || []);
  const result = answer.result || {};
  const verdict = $("rk-ask-verdict");
  verdict.replaceChildren();
  if (!result.verdict && (answer.errors || []).length) {
    verdict.append(element("p", {}, element("span", { class: "rk-verdict rk-invalid", "data-verdict": "invalid", text: LABELS.invalid }),
      " The file is not a valid scenario: each mistake is shown at its line, under the YAML."));
  }
  if (result.verdict) {
    verdict.append(element("p", {}, element("span", { class: `rk-verdict rk-${result.verdict}`, "data-verdict": result.verdict, text: LABELS[result.verdict] || result.verdict })));
  }
  const said = answer.answer || {};
  if (said.question) verdict.append(element("p", { class: "rk-ask-question", text: said.question }));
  for (const paragraph of said.paragraphs || []) {
    verdict.append(element("p", { class: `rk-ask-words-answer rk-ask-${paragraph.kind}`, text: paragraph.text }));
  }
  for (const [number, refusal] of Object.entries(result.rejections || {})) {
    const cite = refusal.ruling ? rulingLink(refusal.ruling) : "";
    verdict.append(element("p", { class: "rk-rejected" }, `Action ${number} is refused: ${refusal.reason} — ${refusal.message}`, cite ? " " : "", cite));
  }
  if (answer.check && result.verdict && !["pass", "question"].includes(result.verdict)) {
    verdict.append(element("pre", { class: "rk-mismatch rk-ask-check", text: answer.check }));  // what differs, as checker check says
  }
  showReadings(pending ? null : answer.readings, result);
  showTrace(result.trace || [], said.played || []);
  $("rk-ask-outcome").textContent = result.outcome && YAML ? YAML.stringify(result.outcome) : ""; // YAML: by the full answer
  $("rk-ask-outcome").dataset.outcome = JSON.stringify(result.outcome ?? null);
  showPlayed(said.played);
  say(SAID[result.verdict] || "The scenario has mistakes: see them beside its lines below.");
  html.dataset.rkAskShown = "";
  if (pending) {
    $("rk-ask-where").textContent = "";
    $("rk-ask-options").replaceChildren(element("p", { class: "rk-ask-pending", text: "Listing what the rules allow next…" }));
    return;
  }
  showOptions(answer.options || null);
  asked += 1;
  html.dataset.rkAskAsked = String(asked);
}

function rulingLink(ruling) {
  return element("a", { href: new URL(`rulings/${encodeURIComponent(ruling)}/`, gamePage).href, text: ruling });
}

function showReadings(readings, result) {
  const box = $("rk-ask-readings");
  box.replaceChildren();
  const used = Object.entries(result.readings || {});
  if (used.length) {
    const line = element("p", { class: "rk-default-reading" }, "Readings of ambiguous rulings used: ");
    used.forEach(([ruling, name], at) => line.append(at ? ", " : "", rulingLink(ruling), ` = ${name}`));
    box.append(line);
  }
  if (readings === undefined || readings === null || readings === "") return;
  box.append(element("h3", { text: "What each reading would give" }));
  const words = String(readings);  // what checker readings prints
  const shown = element("pre", { class: "rk-ask-readings-text" });
  // Each ruling id in the text links to its page.
  const ids = new RegExp(`\\b([a-z]+\\.amb\\.[a-z0-9.-]+[a-z0-9])`, "g");
  let last = 0;
  for (const match of words.matchAll(ids)) {
    shown.append(words.slice(last, match.index), rulingLink(match[1]));
    last = match.index + match[1].length;
  }
  shown.append(words.slice(last));
  box.append(shown);
}

function showTrace(trace, played) {
  // Grouped under what caused each step (setup, an action, the end), numbered straight through, as a scenario's page.
  const parts = [];
  let cause, list;
  trace.forEach((step, at) => {
    const here = step.settling ? "When the scenario ends" : step.action === null ? "Setup: the initial state is built"
      : `Action ${step.action + 1}${played[step.action] ? `: ${played[step.action]}` : ""}`;
    if (here !== cause) {
      cause = here;
      list = element("ol", { class: "rk-trace", start: String(at + 1) });
      parts.push(element("p", { class: "rk-trace-heading", text: here }), list);
    }
    const item = element("li", {}, step.text.replace(/`([^`]+)`/g, "$1"));
    if (step.ruling) item.append(" [", rulingLink(step.ruling), "]");
    list.append(item);
  });
  $("rk-ask-trace").replaceChildren(...(parts.length ? parts : [element("p", { text: "No step yet." })]));
}

function showPlayed(played) {
  // The actions in sentences, as the engine words them; none can be read from a file that is not a valid scenario.
  const list = $("rk-ask-played");
  if (!played) {
    list.replaceChildren(element("li", { class: "rk-ask-unplayed", text: "Correct the scenario to see its actions." }));
    return;
  }
  list.replaceChildren(...played.map((sentence) => element("li", { text: sentence })));
  if (!played.length) list.append(element("li", { class: "rk-ask-none", text: "No action yet: the initial state." }));
}

function showOptions(listed) {
  // What checker options gives after the last action: where play stands, and each option with its words.
  const box = $("rk-ask-options");
  box.replaceChildren();
  const options = (listed && listed.options) || [];
  const where = listed && listed.where;
  $("rk-ask-where").textContent = where ? `Play stands at ${where.phase} › ${where.step}.` : "";
  if (!options.length) {
    box.append(element("p", { text: listed ? "The rules allow no action here." : "No action can be listed until the scenario is corrected." }));
    return;
  }
  const byPlayer = new Map();
  for (const option of options) {
    const who = option.player || "nobody";
    if (!byPlayer.has(who)) byPlayer.set(who, []);
    byPlayer.get(who).push(option);
  }
  for (const [who, mine] of byPlayer) {
    const group = element("div", { class: "rk-ask-player", role: "group", "aria-label": who === "nobody" ? "Actions no player takes" : `Player ${who}` });
    group.append(element("p", { class: "rk-ask-player-name", text: who === "nobody" ? "No player takes these" : `Player ${who}` }));
    const list = element("ul", { class: "rk-ask-option-list" });
    for (const option of mine) {
      const button = element("button", { type: "button", class: "rk-ask-option", "data-action": JSON.stringify(option.action), text: option.words });
      button.addEventListener("click", () => change(() => engine.withAction(text, option.action), `Playing: ${button.textContent}`));
      list.append(element("li", {}, button));
    }
    group.append(list);
    box.append(group);
  }
}

// --- The editor: line numbers, and each mistake beside its line ------------------------------------------------------

function numberLines(errors = []) {
  const count = $("rk-ask-text").value.split("\n").length;
  const wrong = new Set(errors.map((e) => e.line));
  const gutter = $("rk-ask-lines");
  gutter.replaceChildren(...Array.from({ length: count }, (_, at) => element("span", wrong.has(at + 1) ? { class: "rk-ask-wrong", text: `${at + 1}` } : { text: `${at + 1}` })));
}

function showErrors(errors) {
  numberLines(errors);
  const box = $("rk-ask-errors");
  box.replaceChildren();
  for (const error of errors) {
    const where = error.line ? `Line ${error.line}${error.column ? `, column ${error.column}` : ""}` : "The file";
    const go = element("button", { type: "button", class: "rk-ask-goto", "data-line": String(error.line || ""), text: where });
    go.addEventListener("click", () => goToLine(error.line || 1));
    box.append(element("p", { class: "rk-ask-error", "data-line": String(error.line || ""), "data-column": String(error.column || "") }, go, `: ${error.message}`));
  }
}

function goToLine(line) {
  const area = $("rk-ask-text");
  const lines = area.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0);
  area.focus();
  area.setSelectionRange(start, start + (lines[line - 1] || "").length);
}

// --- Cards and rule concepts -----------------------------------------------------------------------------------------

function fillPicker() {
  const wanted = $("rk-ask-filter").value.trim().toLowerCase();
  const found = data.entities.filter((e) => !wanted || e.name.toLowerCase().includes(wanted) || e.kind.includes(wanted));
  const select = $("rk-ask-entity");
  select.replaceChildren(...found.map((e) => element("option", { value: String(data.entities.indexOf(e)), text: `${e.name} (${e.kind === "mechanic" ? "rule concept" : e.kind})` })));
  $("rk-ask-filter-count").textContent = `${found.length} of ${data.entities.length}`;
  if (found.length) select.selectedIndex = 0;
  describe();
}

function chosen() {
  const at = $("rk-ask-entity").value;
  return at === "" ? null : data.entities[Number(at)];
}

function describe() {
  const entity = chosen();
  const box = $("rk-ask-entity-words");
  box.replaceChildren();
  $("rk-ask-put").disabled = !entity || !entity.card || html.dataset.rkAsk === "busy";
  if (!entity) return;
  box.append(element("p", {}, element("a", { href: new URL(entity.page, gamePage).href, text: `${entity.name} (${entity.kind === "mechanic" ? "rule concept" : entity.kind})` }),
    entity.words ? `: ${entity.words}` : ": the source names it; its page quotes what it says."));
  if (!entity.card) box.append(element("p", { class: "rk-ask-note", text: "A rule concept: the engine applies it; it is not put into a state." }));
}

function places() {
  // The lists the state holds cards in: the game's (from its defaults) and those the scenario's state has.
  const found = new Set(data.places);
  const walk = (value, path) => {
    if (Array.isArray(value)) {
      if (value.every((item) => typeof item === "string")) found.add(path.join("."));
    } else if (value && typeof value === "object" && path.length < 5) {
      for (const [key, inner] of Object.entries(value)) walk(inner, [...path, key]);
    }
  };
  walk(parsed().initial, []);
  found.delete("");
  return [...found].sort();
}

function fillPlaces() {
  if (!YAML) return; // the full answer fills them, once the library is loaded
  const select = $("rk-ask-place");
  const kept = select.value;
  select.replaceChildren(...places().map((path) => element("option", { value: path, text: path.split(".").join(" › ") })));
  if (kept) select.value = kept;
}

function putCard() {
  const entity = chosen();
  const place = $("rk-ask-place").value;
  if (!entity || !entity.card || !place) return;
  change(async () => {
    await loadYaml();
    const doc = YAML.parseDocument(text);
    const path = ["initial", ...place.split(".")];
    const list = doc.getIn(path);
    if (YAML.isSeq(list)) list.add(entity.name);
    else doc.setIn(path, doc.createNode([entity.name], { flow: true }));
    if (entity.define && !doc.hasIn(["cards", entity.name])) doc.setIn(["cards", entity.name], doc.createNode(entity.define, { flow: true }));
    return doc.toString();
  }, `Putting ${entity.name} in ${place.split(".").join(" › ")}…`);
}

// --- Starting points -------------------------------------------------------------------------------------------------

async function scenarioText(slug) {
  const response = await fetch(new URL(`scenarios/${slug}/`, gamePage));
  if (!response.ok) throw new Error(`no scenario page ${slug} (${response.status})`);
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const heading = page.getElementById("scenario-file");
  const code = heading && heading.nextElementSibling && heading.nextElementSibling.querySelector("code");
  if (!code) throw new Error(`the page of ${slug} shows no scenario file`);
  fromTitle = (page.querySelector("h1") || {}).textContent || slug;
  return code.textContent;
}

async function backToInitial() {
  await loadYaml();
  let now = text;
  for (let left = (parsed().actions || []).length; left > 0; left -= 1) now = await engine.withoutLastAction(now);
  return now;
}

async function download() {
  await loadYaml();
  const id = String(parsed().id || `ask-${data.game}`).replace(/[^A-Za-z0-9._-]+/g, "-");
  const link = element("a", { href: URL.createObjectURL(new Blob([text], { type: "application/yaml" })), download: `${id}.yaml` });
  document.body.append(link);
  link.click();
  link.remove();
}

async function copyDispute() {
  state("busy");
  try {
    const dispute = await engine.asDispute(text);
    await loadYaml();
    const id = (YAML.parse(dispute) || {}).id || "NAME";
    await navigator.clipboard.writeText(dispute);
    $("rk-ask-copied").textContent = `Copied: save it as scenarios/${data.game}/${id}.yaml and file it as a dispute.`;
  } catch (error) {
    $("rk-ask-copied").textContent = `Not copied: ${error && error.message ? error.message : error}`;
  } finally {
    state("ready");
  }
}

async function playWritten() {
  const written = $("rk-ask-action").value.trim();
  let action;
  try {
    await loadYaml();
    action = YAML.parse(written.startsWith("{") ? written : `{${written}}`);
  } catch (error) {
    say(`That action is not written as a scenario writes one: ${error.message}`);
    return;
  }
  if (!action || typeof action !== "object" || Array.isArray(action) || !action.action) {
    say("An action names what is done: {action: ..., player: ...}.");
    return;
  }
  await change(() => engine.withAction(text, action), `Trying: ${written}`);
}

function wire() {
  $("rk-ask-empty").addEventListener("click", () => {
    fromTitle = "";
    startFrom(null);
  });
  $("rk-ask-initial").addEventListener("click", () => change(backToInitial, "Back to the initial state…"));
  $("rk-ask-undo").addEventListener("click", () => change(() => engine.withoutLastAction(text), "Undoing the last action…"));
  $("rk-ask-filter").addEventListener("input", fillPicker);
  $("rk-ask-entity").addEventListener("change", describe);
  $("rk-ask-put").addEventListener("click", putCard);
  $("rk-ask-play").addEventListener("click", playWritten);
  $("rk-ask-action").addEventListener("keydown", (event) => { if (event.key === "Enter") playWritten(); });
  $("rk-ask-run").addEventListener("click", () => change(async () => $("rk-ask-text").value, "Asking again…"));
  $("rk-ask-text").addEventListener("input", () => numberLines());
  $("rk-ask-text").addEventListener("scroll", () => { $("rk-ask-lines").scrollTop = $("rk-ask-text").scrollTop; });
  $("rk-ask-download").addEventListener("click", download);
  $("rk-ask-dispute").addEventListener("click", copyDispute);
  const observer = new MutationObserver(fillPlaces);
  observer.observe($("rk-ask-played"), { childList: true });
}

function wanted() {
  // The scenario to start from: "#from=SLUG" (a scenario page's link), or "?from=SLUG".
  return new URLSearchParams(location.hash.slice(1)).get("from") || new URLSearchParams(location.search).get("from");
}

/** The scenario ``slug``'s text, and the engine's verdict on it, asked as soon as the text is here: ``{text, verdict}``. */
async function fetchAndAsk(slug) {
  const fetched = await scenarioText(slug);
  const verdict = engine.ask(fetched, "ask.yaml", false);
  verdict.catch(() => {}); // said by change, or by unavailable
  return { text: fetched, verdict };
}

async function startFrom(from, first = null) {
  if (from && SLUG.test(from)) {
    await change(() => first || fetchAndAsk(from), `Loading the scenario ${from}…`);
    const link = element("a", { href: new URL(`scenarios/${from}/`, gamePage).href, text: fromTitle || from });
    $("rk-ask-from").replaceChildren("From the scenario ", link, ": change it, play other actions, ask again.");
    $("rk-ask-from").dataset.from = from;
  } else {
    $("rk-ask-from").textContent = "The game's starting position, with the opening actions of its starter scenario.";
    $("rk-ask-from").dataset.from = "";
    await change(() => engine.start(data.game, true), "Setting up the starting position…");
  }
}

async function main() {
  state("loading");
  const from = wanted();
  engine = startEngine(root);
  // The scenario is fetched and asked about while the engine loads: it answers as soon as it has loaded.
  const first = from && SLUG.test(from) ? fetchAndAsk(from) : null;
  first?.catch(() => {}); // said by change
  try {
    await engine.ready;
  } catch (error) {
    unavailable(error);
    return;
  }
  $("rk-ask").hidden = false;
  wire();
  fillPicker();
  state("ready");
  window.addEventListener("hashchange", () => startFrom(wanted()));
  await startFrom(from, first);
}

main();
