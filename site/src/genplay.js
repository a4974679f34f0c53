// The genplay loader: instantiates genplay.wasm and installs
// globalThis.genplay = {version, ready, run}. The contract is documented once,
// in wasm/doc.go.

const internal = (message) => ({
  format: 'genplay.timeline/v1', test: '', steps: null, passed: false,
  diagnostics: [{ file: '', line: 0, column: 0, severity: 'error', message }],
});

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(s);
  });
}

async function instantiate(url, imports) {
  try {
    return await WebAssembly.instantiateStreaming(fetch(url), imports);
  } catch {
    // A server without application/wasm still works, just slower.
    const bytes = await (await fetch(url)).arrayBuffer();
    return WebAssembly.instantiate(bytes, imports);
  }
}

/**
 * install defines globalThis.genplay and starts loading the engine.
 * @param {{wasmURL: string, wasmExecURL: string}} where
 */
export function install({ wasmURL, wasmExecURL }) {
  if (globalThis.genplay) return globalThis.genplay;
  let wasm = null;
  let exited = false;
  const api = {
    version: '',
    ready: null,
    run(text, options) {
      if (!wasm) return internal('engine not ready: await genplay.ready');
      if (exited) return internal('internal error: the engine stopped; reload the page');
      let opts;
      try {
        opts = options === undefined || options === null ? undefined : JSON.stringify(options);
      } catch (e) {
        return internal(`options: ${e.message}`);
      }
      try {
        return JSON.parse(wasm.run(text, opts));
      } catch (e) {
        return internal(`internal error: ${e.message}`);
      }
    },
  };
  api.ready = (async () => {
    if (!globalThis.Go) await loadScript(wasmExecURL);
    const go = new globalThis.Go();
    const registered = new Promise((resolve) => { globalThis.__genplayOnReady = resolve; });
    const { instance } = await instantiate(wasmURL, go.importObject);
    go.run(instance).finally(() => { exited = true; });
    await registered;
    wasm = globalThis.__genplayWasm;
    api.version = String(wasm.version);
  })();
  globalThis.genplay = api;
  return api;
}
