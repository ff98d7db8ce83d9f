/* Rulings website: the Web Worker that runs the engine (see ask-engine.js).
 *
 * Messages in: {load: true} once, then {id, name, args}; out: {ready, timings | error} once, then
 * {id, ok, value | error}. Calls are answered one at a time, in order.
 *
 * Loading starts as the worker starts, everything at once: Pyodide's loader, the engine's bundle and the snapshot
 * kept by an earlier visit.
 *
 * A later visit starts from that snapshot of the engine's memory: on a first visit, once the first answer is sent,
 * every game is made ready (checker.commands.ask.warm) and Pyodide's memory is kept in the Cache API, marked with
 * Pyodide's version and the hash of the engine's bundle; a later visit whose marks agree restores it instead of
 * starting Python and importing the engine again. A snapshot that does not restore is dropped and the engine starts
 * afresh. Each site keeps one snapshot: a new one replaces the last.
 *
 * The snapshot holds memory, not files: a restored engine has imported and read what it needs to answer, so its
 * files are unpacked again only once the first answer is sent, before anything else is asked. Should that first
 * call fail, it is asked again once they are.
 */
const ASSETS = new URL(".", self.location.href);
const ENGINE = "/home/pyodide/rulings";
const SNAPSHOTS = "rulings-engine-snapshots";
const SNAPSHOT = new URL("ask/engine-snapshot", ASSETS).href;
const MADE_FOR = "X-Rulings-Engine";   /* the snapshot's header: the Pyodide version and bundle it was made with */

let api = null;
let unpack = null;  /* on a later visit, until the files are unpacked */
let keep = null;    /* after the first answer of a first visit: keeps a snapshot for the next visit */
let answered = 0;
const loading = load();
loading.catch(() => {});   /* reported when the page asks for the engine */

self.onmessage = async (event) => {
  const message = event.data;
  if (message.load) {
    try {
      self.postMessage({ ready: true, timings: await loading });
    } catch (error) {
      self.postMessage({ ready: false, error: String(error && error.message || error) });
    }
    return;
  }
  if (answered) unpackNow();
  const call = () => JSON.parse(api.call(message.name, JSON.stringify(message.args)));
  let answer = call();
  if (!answer.ok && unpack) {
    unpackNow();
    answer = call();
  }
  answered += 1;
  self.postMessage({ id: message.id, ...answer });
  if (unpack) setTimeout(unpackNow, 0);
  if (keep) setTimeout(keep, 0);
  keep = null;
};

function unpackNow() {
  if (unpack) unpack();
  unpack = null;
}

async function load() {
  const began = performance.now();
  const runtime = new URL("vendor/pyodide/", ASSETS).href;
  const loader = import(new URL("pyodide.mjs", runtime).href);
  const bundle = fetch(new URL("ask/engine.zip", ASSETS)).then(async (response) => {
    if (!response.ok) throw new Error(`the engine's bundle could not be fetched (HTTP ${response.status})`);
    return new Uint8Array(await response.arrayBuffer());
  });
  const store = self.caches ? self.caches.open(SNAPSHOTS).catch(() => null) : Promise.resolve(null);
  const kept = store.then((opened) => opened && opened.match(SNAPSHOT)).catch(() => undefined);
  const memory = kept.then((found) => found && found.arrayBuffer()).catch(() => undefined);   /* read at once: 30 MiB and more */
  const { loadPyodide, version } = await loader;
  const options = { indexURL: runtime, env: { RULINGS_CACHE: ENGINE + "/cache" } };
  const bundled = await bundle;
  const madeFor = `${version} ${await digest(bundled)}`;
  const snapshot = await kept;
  let pyodide = null, dropped = null;
  if (snapshot && snapshot.headers.get(MADE_FOR) === madeFor) {
    try {
      pyodide = await restore(loadPyodide, options, memory);
    } catch (error) {
      dropped = String(error && error.message || error);
      await (await store).delete(SNAPSHOT);
    }
  }
  const restored = pyodide !== null;
  if (!restored) pyodide = await loadPyodide({ ...options, _makeSnapshot: Boolean(await store) });
  const started = performance.now();
  unpack = () => pyodide.unpackArchive(bundled, "zip", { extractDir: ENGINE });
  if (!restored) {
    unpackNow();
    pyodide.runPython(`import sys; sys.path.insert(0, "${ENGINE}")`);
  }
  const unpacked = performance.now();
  api = pyodide.pyimport("checker.commands.ask");
  const imported = performance.now();
  if (!restored && await store) keep = () => keepSnapshot(pyodide, madeFor, store);
  return { runtime: started - began, bundle: unpacked - started, imports: imported - unpacked, restored, dropped };
}

async function keepSnapshot(pyodide, madeFor, store) {
  try {
    api.call("warm", "[]");
    const memory = pyodide.makeMemorySnapshot();
    const headers = { "Content-Type": "application/octet-stream", [MADE_FOR]: madeFor };
    await (await store).put(SNAPSHOT, new Response(memory, { headers }));
  } catch (error) {
    console.warn("rulings engine: no snapshot kept:", error);  /* the next visit starts afresh */
  }
}

/* Pyodide restores a snapshot into the memory its WebAssembly module starts with (30 MiB), but the engine's memory
   grows past it once the games are imported: while Pyodide loads, the module's memory is grown to the snapshot's size
   as soon as it is instantiated, before Pyodide copies the snapshot in. ``read`` gives the snapshot's bytes, read
   while Pyodide's own files load: Pyodide waits for them before it instantiates the module. */
async function restore(loadPyodide, options, read) {
  let size = 0;
  const memory = read.then((buffer) => {
    size = buffer.byteLength;
    return new Uint8Array(buffer);
  });
  const { instantiate, instantiateStreaming } = WebAssembly;
  const grown = (result) => {
    const wasm = (result.instance || result).exports.memory;
    if (wasm instanceof WebAssembly.Memory) {
      const pages = Math.ceil(size / 65536) - wasm.buffer.byteLength / 65536;
      if (pages > 0) wasm.grow(pages);
    }
    return result;
  };
  WebAssembly.instantiate = (...args) => instantiate.apply(WebAssembly, args).then(grown);
  WebAssembly.instantiateStreaming = (...args) => instantiateStreaming.apply(WebAssembly, args).then(grown);
  try {
    return await loadPyodide({ ...options, _loadSnapshot: memory });
  } finally {
    Object.assign(WebAssembly, { instantiate, instantiateStreaming });
  }
}

async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}
