/* Rulings website: the Web Worker that runs the engine (see ask-engine.js).
 *
 * Messages in: {load: true, compiledByPage} once; {compiled} once if compiledByPage; {id, name, args} at any time
 * after {load}. Out: {ready, timings | error} once, then {id, ok, value | error}. Calls are answered one at a time, in
 * order, once the engine has loaded: a page may ask before then.
 *
 * Loading starts as the worker starts, everything at once: Pyodide's loader and its JavaScript module, the engine's
 * bundle and the snapshot kept by an earlier visit. Pyodide's WebAssembly module is compiled by the Ask page, which
 * starts as soon as its head is read and posts the module here ({compiled}: the module, or why there is none); a
 * worker started by another page ({load: true} without compiledByPage) compiles it itself.
 *
 * A later visit starts from a snapshot of the engine's memory. On a first visit, once the page has asked nothing for
 * IDLE ms after the first answer, every game is made ready (checker.commands.ask.warm) and Pyodide's memory is kept in
 * the site's private file system (read back through a synchronous access handle, straight into one buffer), under a
 * first line that names Pyodide's version, the hash of the engine's bundle and the memory's size. A later visit whose
 * first line agrees restores it instead of starting Python and importing the engine again. A snapshot that does not
 * restore is removed and the engine starts afresh. Each site keeps one snapshot: a new one replaces the last.
 *
 * The snapshot holds memory, not files: a restored engine has imported and read what it needs to answer, so its
 * files are unpacked again only once the first answer is sent, before anything else is asked. Should that first
 * call fail, it is asked again once they are.
 */
const ASSETS = new URL(".", self.location.href);
const RUNTIME = new URL("vendor/pyodide/", ASSETS);
const WASM = new URL("pyodide.asm.wasm", RUNTIME);
const ENGINE = "/home/pyodide/rulings";
const SNAPSHOT = "rulings-engine-snapshot";   /* in the site's private file system; written first under PARTIAL */
const PARTIAL = SNAPSHOT + ".partial";

const IDLE = 400;   /* ms */

let api = null;
let answered = 0;
let unpack = null;     /* on a later visit, until the files are unpacked */
let keep = null;       /* on a first visit, until a snapshot is kept for the next */
let keepTimer = null;
let compiled = null;   /* settled by the page's {compiled}, or by compiling here: see {load} */
const wasm = new Promise((resolve, reject) => { compiled = { resolve, reject }; });
wasm.catch(() => {});   /* said by withModule */
const loading = load();
loading.catch(() => {});   /* reported when the page asks for the engine */
let answering = Promise.resolve();

self.onmessage = (event) => {
  const message = event.data;
  if ("compiled" in message) {
    if (message.compiled instanceof WebAssembly.Module) compiled.resolve(message.compiled);
    else compiled.reject(new Error(message.compiled));
  } else if (message.load) {
    if (!message.compiledByPage) compiled.resolve(compileHere());
    loading.then(
      (timings) => self.postMessage({ ready: true, timings }),
      (error) => self.postMessage({ ready: false, error: String(error && error.message || error) }));
  } else {
    answering = answering.then(() => answer(message));
  }
};

async function answer(message) {
  try {
    await loading;
  } catch (error) {
    self.postMessage({ id: message.id, ok: false, error: `the engine did not load: ${error && error.message || error}` });
    return;
  }
  clearTimeout(keepTimer);
  try {
    if (answered) unpackNow();
    const call = () => JSON.parse(api.call(message.name, JSON.stringify(message.args)));
    let answer = call();
    if (!answer.ok && unpack) {
      unpackNow();
      answer = call();
    }
    answered += 1;
    self.postMessage({ id: message.id, ...answer });
  } catch (error) {   /* this call fails; those after it are answered */
    self.postMessage({ id: message.id, ok: false, error: String(error && error.message || error) });
  }
  if (unpack) setTimeout(unpackNow, 0);
  if (keep) keepTimer = setTimeout(keepNow, IDLE);
}

function keepNow() {
  const kept = keep;
  keep = null;
  kept();
}

function unpackNow() {
  if (unpack) unpack();
  unpack = null;
}

async function load() {
  const began = performance.now();
  const loader = import(new URL("pyodide.mjs", RUNTIME).href);
  const module = import(new URL("pyodide.asm.mjs", RUNTIME).href);   /* what the loader would import next */
  const bundle = fetch(new URL("ask/engine.zip", ASSETS)).then(async (response) => {
    if (!response.ok) throw new Error(`the engine's bundle could not be fetched (HTTP ${response.status})`);
    return new Uint8Array(await response.arrayBuffer());
  });
  const kept = readSnapshot().catch(() => null);
  const { loadPyodide, version } = await loader;
  const options = { indexURL: RUNTIME.href, env: { RULINGS_CACHE: ENGINE + "/cache" }, createPyodideModule: (await module).default };
  const bundled = await bundle;
  const madeFor = `${version} ${await digest(bundled)}`;
  const snapshot = await kept;
  let pyodide = null, dropped = null;
  if (snapshot && snapshot.head === `${madeFor} ${snapshot.memory.length}`) {
    try {
      pyodide = await withModule(snapshot.memory.length, () => loadPyodide({ ...options, _loadSnapshot: snapshot.memory }));
    } catch (error) {
      dropped = String(error && error.message || error);
      await removeSnapshot();
    }
  }
  const restored = pyodide !== null;
  const canKeep = Boolean(self.navigator.storage && self.navigator.storage.getDirectory);
  if (!restored) pyodide = await withModule(0, () => loadPyodide({ ...options, _makeSnapshot: canKeep }));
  const started = performance.now();
  unpack = () => pyodide.unpackArchive(bundled, "zip", { extractDir: ENGINE });
  if (!restored) {
    unpackNow();
    pyodide.runPython(`import sys; sys.path.insert(0, "${ENGINE}")`);
  }
  const unpacked = performance.now();
  api = pyodide.pyimport("checker.commands.ask");
  const imported = performance.now();
  if (!restored && canKeep) keep = () => keepSnapshot(pyodide, madeFor);
  return { runtime: started - began, bundle: unpacked - started, imports: imported - unpacked, restored, dropped };
}

async function keepSnapshot(pyodide, madeFor) {
  try {
    api.call("warm", "[]");
    const memory = pyodide.makeMemorySnapshot();
    const folder = await self.navigator.storage.getDirectory();
    const file = await folder.getFileHandle(PARTIAL, { create: true });
    const handle = await file.createSyncAccessHandle();
    try {
      const head = new TextEncoder().encode(`${madeFor} ${memory.length}\n`);
      handle.truncate(0);
      handle.write(head, { at: 0 });
      handle.write(memory, { at: head.length });
      handle.flush();
    } finally {
      handle.close();
    }
    await removeSnapshot();
    await file.move(SNAPSHOT);
  } catch (error) {
    console.warn("rulings engine: no snapshot kept:", error);  /* the next visit starts afresh */
  }
}

/* The snapshot an earlier visit kept: its first line, and the memory that follows; null if there is none. */
async function readSnapshot() {
  const folder = await self.navigator.storage.getDirectory();
  const handle = await (await folder.getFileHandle(SNAPSHOT)).createSyncAccessHandle();
  try {
    const size = handle.getSize();
    const start = new Uint8Array(Math.min(size, 256));
    handle.read(start, { at: 0 });
    const end = start.indexOf(10);
    if (end < 0) return null;
    const memory = new Uint8Array(size - end - 1);
    handle.read(memory, { at: end + 1 });
    return { head: new TextDecoder().decode(start.subarray(0, end)), memory };
  } finally {
    handle.close();
  }
}

async function removeSnapshot() {
  try {
    await (await self.navigator.storage.getDirectory()).removeEntry(SNAPSHOT);
  } catch {
    /* there was none */
  }
}

/* Pyodide's WebAssembly module (9.6 MB), compiled here: on a later visit, from the code the browser keeps of it. */
function compileHere() {
  return WebAssembly.compileStreaming
    ? WebAssembly.compileStreaming(fetch(WASM))
    : fetch(WASM).then((response) => response.arrayBuffer()).then((bytes) => WebAssembly.compile(bytes));
}

/* ``load()``, in which Pyodide instantiates the module the page compiled (``wasm``) instead of compiling the response
   it fetched (WebAssembly.instantiateStreaming, its first call). Its memory is first grown to ``size`` bytes: Pyodide
   restores a snapshot into the memory the module starts with (30 MiB), and the engine's grows past that once the games
   are imported. A module that cannot be compiled fails the load at once: Pyodide would wait for it forever. */
async function withModule(size, load) {
  const { instantiateStreaming } = WebAssembly;
  let used = false;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if (used) return instantiateStreaming.call(WebAssembly, source, imports);
    used = true;
    Promise.resolve(source).then((response) => response.body && response.body.cancel()).catch(() => {});
    const module = await wasm;
    const instance = await WebAssembly.instantiate(module, imports);
    const pages = Math.ceil(size / 65536) - instance.exports.memory.buffer.byteLength / 65536;
    if (pages > 0) instance.exports.memory.grow(pages);
    return { module, instance };
  };
  const failed = wasm.then(() => new Promise(() => {}), (error) => {
    throw new Error(`Pyodide's WebAssembly could not be loaded: ${error && error.message || error}`);
  });
  try {
    return await Promise.race([load(), failed]);
  } finally {
    WebAssembly.instantiateStreaming = instantiateStreaming;
  }
}

async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}
