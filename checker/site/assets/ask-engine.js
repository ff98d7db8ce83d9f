/* Rulings website: the project's own engine, run in the browser for the Ask page.
 *
 *   import { loadEngine } from "<site>/assets/ask-engine.js";
 *   const engine = await loadEngine();   // rejects with an Error that says why it cannot run here
 *   const said = await engine.ask(text); // what checker.commands.ask.ask gives (see its docstring)
 *   await engine.ask(text, name, false); // the verdict sooner: no readings, no options (engine.options(text) gives them)
 *
 * Pyodide (the Python interpreter built for WebAssembly) runs in a dedicated Web Worker (ask-worker.js), so the page
 * stays responsive; the worker loads the runtime and the engine's bundle from this site's own files.
 */

const HERE = new URL(".", import.meta.url);   /* the site's assets/ folder */
const LOAD_TIMEOUT = 60000;                    /* ms: past this, loading is given up */

/* The engine, loaded once per page: every caller shares it. */
let loading = null;

export function loadEngine(siteRoot) {
  if (!loading) {
    loading = start(siteRoot);
    loading.catch(() => { loading = null; });   /* a failed load may be tried again */
  }
  return loading;
}

function start(siteRoot) {
  if (typeof WebAssembly !== "object") {
    return Promise.reject(new Error("this browser does not run WebAssembly, which the engine needs"));
  }
  if (typeof Worker !== "function") {
    return Promise.reject(new Error("this browser does not run Web Workers, which the engine needs"));
  }
  const assets = siteRoot ? new URL("assets/", new URL(siteRoot, document.baseURI)) : HERE;
  let worker = window.rkEngineWorker;   /* started by an Ask page's head, with the worker below */
  delete window.rkEngineWorker;
  if (worker && worker.failed) {
    return Promise.reject(new Error("the engine failed to load: " + worker.failed));
  }
  try {
    worker = worker || new Worker(new URL("ask-worker.js", assets), { type: "module", name: "rulings-engine" });
  } catch (error) {
    return Promise.reject(new Error("the engine's worker could not be started: " + error.message));
  }
  const waiting = new Map();
  let next = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new Error(`the engine did not load within ${LOAD_TIMEOUT / 1000} s`));
    }, LOAD_TIMEOUT);
    worker.onerror = (event) => {
      clearTimeout(timer);
      worker.terminate();
      reject(new Error("the engine failed to load: " + (event.message || "its worker stopped")));
    };
    worker.onmessage = (event) => {
      const message = event.data;
      if (message.ready !== undefined) {
        clearTimeout(timer);
        if (!message.ready) {
          worker.terminate();
          reject(new Error("the engine failed to load: " + message.error));
          return;
        }
        worker.onerror = null;
        resolve(engine(call, message.timings));
        return;
      }
      const settle = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.ok) settle.resolve(message.value);
      else settle.reject(new Error(message.error));
    };
    worker.postMessage({ load: true });
  });

  function call(name, ...args) {
    const id = next++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, name, args });
    });
  }
}

function engine(call, timings) {
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
    timings,   /* ms spent loading: { runtime, bundle, imports } */
  };
}
