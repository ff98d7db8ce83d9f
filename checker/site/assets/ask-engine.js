/* Rulings website: the project's own engine, run in the browser for the Ask page.
 *
 *   import { loadEngine, startEngine } from "<site>/assets/ask-engine.js";
 *   const engine = await loadEngine();   // rejects with an Error that says why it cannot run here
 *   const said = await engine.ask(text); // what checker.commands.ask.ask gives (see its docstring)
 *   await engine.ask(text, name, false); // the verdict sooner: no readings, no options (engine.options(text) gives them)
 *
 *   const engine = startEngine();        // at once: calls made now are answered once the engine has loaded
 *   const first = engine.ask(text);      // rejects, as engine.ready does, if it cannot load
 *   await engine.ready;
 *
 * Pyodide (the Python interpreter built for WebAssembly) runs in a dedicated Web Worker (ask-worker.js), so the page
 * stays responsive; the worker loads the runtime and the engine's bundle from this site's own files.
 */

const HERE = new URL(".", import.meta.url);   /* the site's assets/ folder */
const LOAD_TIMEOUT = 60000;                    /* ms: past this, loading is given up */

/* The engine, started once per page: every caller shares it. */
let started = null;

export function startEngine(siteRoot) {
  if (!started) {
    started = start(siteRoot);
    started.ready.catch(() => { started = null; });   /* a failed load may be tried again */
  }
  return started;
}

export function loadEngine(siteRoot) {
  const engine = startEngine(siteRoot);
  return engine.ready.then(() => engine);
}

function start(siteRoot) {
  const waiting = new Map();
  let next = 0;
  let worker = null;
  let failed = null;
  const made = {};
  const ready = new Promise((resolve, reject) => {
    const fail = (why) => {
      failed = why;
      if (worker) worker.terminate();
      for (const settle of waiting.values()) settle.reject(why);
      waiting.clear();
      reject(why);
    };
    try {
      worker = startWorker(siteRoot);
    } catch (error) {
      fail(error);
      return;
    }
    const timer = setTimeout(() => fail(new Error(`the engine did not load within ${LOAD_TIMEOUT / 1000} s`)), LOAD_TIMEOUT);
    worker.onerror = (event) => {
      clearTimeout(timer);
      fail(new Error("the engine failed to load: " + (event.message || "its worker stopped")));
    };
    worker.onmessage = (event) => {
      const message = event.data;
      if (message.ready !== undefined) {
        clearTimeout(timer);
        if (!message.ready) {
          fail(new Error("the engine failed to load: " + message.error));
          return;
        }
        worker.onerror = null;
        made.timings = message.timings;
        resolve(message.timings);
        return;
      }
      const settle = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.ok) settle.resolve(message.value);
      else settle.reject(new Error(message.error));
    };
    worker.postMessage({ load: true, compiledByPage: Boolean(worker.compiles) });
  });

  function call(name, ...args) {
    if (failed) return Promise.reject(failed);
    const id = next++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, name, args });
    });
  }
  return Object.assign(made, engine(call), { ready });
}

/* The engine's worker: the one an Ask page's head started (it compiles Pyodide's WebAssembly for it), else a new one.
   Throws an Error that says why none can run. */
function startWorker(siteRoot) {
  if (typeof WebAssembly !== "object") throw new Error("this browser does not run WebAssembly, which the engine needs");
  if (typeof Worker !== "function") throw new Error("this browser does not run Web Workers, which the engine needs");
  const worker = window.rkEngineWorker;
  delete window.rkEngineWorker;
  if (worker && worker.failed) throw new Error("the engine failed to load: " + worker.failed);
  if (worker) return worker;
  const assets = siteRoot ? new URL("assets/", new URL(siteRoot, document.baseURI)) : HERE;
  try {
    return new Worker(new URL("ask-worker.js", assets), { type: "module", name: "rulings-engine" });
  } catch (error) {
    throw new Error("the engine's worker could not be started: " + error.message);
  }
}

function engine(call) {
  return {
    ask: (text, name = "ask.yaml", full = true) => call("ask", text, name, full),
    options: (text, name = "ask.yaml") => call("options", text, name),
    readings: (text, name = "ask.yaml") => call("readings", text, name),
    start: (game, question) => call("start", game, Boolean(question)),
    withAction: (text, action) => call("with_action", text, action),
    withoutLastAction: (text) => call("without_last_action", text),
    asDispute: (text) => call("as_dispute", text),
    games: () => call("games"),
    call,
    timings: null,   /* once loaded, ms spent loading: { runtime, bundle, imports, restored, dropped } */
  };
}
