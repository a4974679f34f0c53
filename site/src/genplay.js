// The genplay loader: compiles genplay.wasm once and installs
// globalThis.genplay = {version, ready, run, crashed, restart}. The contract
// is documented once, in wasm/doc.go.

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

async function compile(url) {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    // A server without application/wasm still works, just slower.
    const response = await fetch(url);
    if (!response.ok) throw new Error(`cannot load ${url}: ${response.status}`);
    return WebAssembly.compile(await response.arrayBuffer());
  }
}

/**
 * install defines globalThis.genplay and starts loading the engine.
 * @param {{wasmURL: string, wasmExecURL: string}} where
 */
export function install({ wasmURL, wasmExecURL }) {
  if (globalThis.genplay) return globalThis.genplay;
  let module = null; // the compiled wasm, instantiated again by restart
  let wasm = null; // the running instance's private API
  let starting = null;

  // start runs a fresh Go program and resolves once it has registered.
  const start = async () => {
    const go = new globalThis.Go();
    const registered = new Promise((resolve) => { globalThis.__genplayOnReady = resolve; });
    const instance = await WebAssembly.instantiate(module, go.importObject);
    const live = { go };
    const exited = go.run(instance).catch((e) => e).then((why) => {
      if (wasm === live) crash(why instanceof Error ? why.message : 'the Go program exited');
    });
    await Promise.race([registered, exited.then(() => { throw new Error('the engine exited while starting'); })]);
    live.api = globalThis.__genplayWasm;
    wasm = live;
    api.crashed = false;
    api.version = String(live.api.version);
  };

  // crash marks the running engine dead and tells the page once.
  const crash = (why) => {
    if (!wasm) return;
    wasm = null;
    api.crashed = true;
    console.warn(`genplay: the engine crashed (${why}); call genplay.restart()`);
    globalThis.dispatchEvent(new CustomEvent('genplay:crash', { detail: { message: why } }));
  };

  const api = {
    version: '',
    ready: null,
    crashed: false,
    run(text, options) {
      if (api.crashed) return internal('internal error: the engine stopped after a crash and is not running; call genplay.restart()');
      if (!wasm) return internal('engine not ready: await genplay.ready');
      let opts;
      try {
        opts = options === undefined || options === null ? undefined : JSON.stringify(options);
      } catch (e) {
        return internal(`options: ${e.message}`);
      }
      const live = wasm;
      let out;
      try {
        out = live.api.run(text, opts);
      } catch (e) {
        // A trap leaves the Go runtime in an unknown state: never call it again.
        crash(e.message);
        return internal(`internal error: the engine crashed during this run (${e.message})`);
      }
      if (live.go.exited || typeof out !== 'string') {
        crash('the Go program exited during run');
        return internal('internal error: the engine crashed during this run (the Go program exited)');
      }
      try {
        return JSON.parse(out);
      } catch (e) {
        return internal(`internal error: ${e.message}`);
      }
    },
    restart() {
      if (wasm) return Promise.resolve();
      if (!starting) starting = api.ready.catch(() => {}).then(start).finally(() => { starting = null; });
      return starting;
    },
  };
  api.ready = (async () => {
    const [compiled] = await Promise.all([compile(wasmURL), globalThis.Go ? null : loadScript(wasmExecURL)]);
    module = compiled;
    await start();
  })();
  globalThis.genplay = api;
  return api;
}
