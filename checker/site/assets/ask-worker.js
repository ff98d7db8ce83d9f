/* Rulings website: the Web Worker that runs the engine (see ask-engine.js).
 *
 * Messages in: {load: {assets}} once, then {id, name, args}; out: {ready, timings | error} once, then
 * {id, ok, value | error}. Calls are answered one at a time, in order.
 *
 * A later visit starts from a snapshot of the engine's memory: on a first visit, once the first answer is sent,
 * every game is made ready (checker.commands.ask.warm) and Pyodide's memory is kept in the Cache API, under
 * Pyodide's version and the hash of the engine's bundle; a later visit restores it instead of starting Python and
 * importing the engine again. A snapshot that does not restore is dropped and the engine starts afresh.
 */
const ENGINE = "/home/pyodide/rulings";
const SNAPSHOTS = "rulings-engine-snapshots";

let api = null;
let keep = null;   /* after the first answer of a first visit: keeps a snapshot for the next visit */

self.onmessage = async (event) => {
  const message = event.data;
  if (message.load) {
    try {
      const timings = await load(message.load.assets);
      self.postMessage({ ready: true, timings });
    } catch (error) {
      self.postMessage({ ready: false, error: String(error && error.message || error) });
    }
    return;
  }
  const answer = JSON.parse(api.call(message.name, JSON.stringify(message.args)));
  self.postMessage({ id: message.id, ...answer });
  if (keep) {
    const keeping = keep;
    keep = null;
    setTimeout(keeping, 0);
  }
};

async function load(assets) {
  const began = performance.now();
  const runtime = new URL("vendor/pyodide/", assets).href;
  const response = await fetch(new URL("ask/engine.zip", assets));
  if (!response.ok) throw new Error(`the engine's bundle could not be fetched (HTTP ${response.status})`);
  const bundle = new Uint8Array(await response.arrayBuffer());
  const { loadPyodide, version } = await import(new URL("pyodide.mjs", runtime).href);
  const options = { indexURL: runtime, env: { RULINGS_CACHE: ENGINE + "/cache" } };
  const key = new URL(`ask/snapshot-${version}-${await digest(bundle)}`, assets).href;
  const store = self.caches ? await self.caches.open(SNAPSHOTS).catch(() => null) : null;
  const kept = store ? await store.match(key) : undefined;
  let pyodide = null, dropped = null;
  if (kept) {
    try {
      const memory = new Uint8Array(await kept.arrayBuffer());
      pyodide = await withMemoryFor(memory.length, () => loadPyodide({ ...options, _loadSnapshot: memory }));
    } catch (error) {
      dropped = String(error && error.message || error);
      await store.delete(key);
    }
  }
  const restored = pyodide !== null;
  if (!restored) pyodide = await loadPyodide({ ...options, _makeSnapshot: Boolean(store) });
  const started = performance.now();
  pyodide.unpackArchive(bundle, "zip", { extractDir: ENGINE });
  const unpacked = performance.now();
  if (!restored) pyodide.runPython(`import sys; sys.path.insert(0, "${ENGINE}")`);
  api = pyodide.pyimport("checker.commands.ask");
  const imported = performance.now();
  if (store && !restored) {
    keep = async () => {
      try {
        api.call("warm", "[]");
        const memory = pyodide.makeMemorySnapshot();
        await store.put(key, new Response(memory, { headers: { "Content-Type": "application/octet-stream" } }));
      } catch (error) {
        console.warn("rulings engine: no snapshot kept:", error);  /* the next visit starts afresh */
      }
    };
  }
  return { runtime: started - began, bundle: unpacked - started, imports: imported - unpacked, restored, dropped };
}

/* Pyodide restores a snapshot into the memory its WebAssembly module starts with (30 MiB), but the engine's memory
   grows past it once the games are imported: while ``load`` runs, the module's memory is grown to ``size`` bytes as
   soon as it is instantiated, before Pyodide copies the snapshot in. */
async function withMemoryFor(size, load) {
  const { instantiate, instantiateStreaming } = WebAssembly;
  const grown = (result) => {
    const memory = (result.instance || result).exports.memory;
    if (memory instanceof WebAssembly.Memory) {
      const pages = Math.ceil(size / 65536) - memory.buffer.byteLength / 65536;
      if (pages > 0) memory.grow(pages);
    }
    return result;
  };
  WebAssembly.instantiate = (...args) => instantiate.apply(WebAssembly, args).then(grown);
  WebAssembly.instantiateStreaming = (...args) => instantiateStreaming.apply(WebAssembly, args).then(grown);
  try {
    return await load();
  } finally {
    Object.assign(WebAssembly, { instantiate, instantiateStreaming });
  }
}

async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}
