/* Rulings website: the Web Worker that runs the engine (see ask-engine.js).
 *
 * Messages in: {load: {assets}} once, then {id, name, args}; out: {ready, timings | error} once, then
 * {id, ok, value | error}. Calls are answered one at a time, in order.
 */
const ENGINE = "/home/pyodide/rulings";

let api = null;

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
};

async function load(assets) {
  const began = performance.now();
  const runtime = new URL("vendor/pyodide/", assets).href;
  const bundle = fetch(new URL("ask/engine.zip", assets)).then((response) => {
    if (!response.ok) throw new Error(`the engine's bundle could not be fetched (HTTP ${response.status})`);
    return response.arrayBuffer();
  });
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtime).href);
  const pyodide = await loadPyodide({ indexURL: runtime, env: { RULINGS_CACHE: ENGINE + "/cache" } });
  const started = performance.now();
  pyodide.unpackArchive(await bundle, "zip", { extractDir: ENGINE });
  const unpacked = performance.now();
  pyodide.runPython(`import sys; sys.path.insert(0, "${ENGINE}")`);
  api = pyodide.pyimport("checker.commands.ask");
  const imported = performance.now();
  return { runtime: started - began, bundle: unpacked - started, imports: imported - unpacked };
}
