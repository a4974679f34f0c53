// The engine's host: runs genplay.wasm and answers the loader's messages
// (site/src/genplay.js; the contract is in wasm/doc.go). It runs in a Web
// Worker, so a long run never freezes the page: the loader terminates the
// worker when a run passes its deadline or the user stops it. host() also
// serves the loader's main-thread fallback, for pages that allow no worker:
// there a run yields to the page between bits of work and a 'stop' message
// cancels it (runs carry inPage).
//
// Messages in:  {type: 'start', module, wasmExecURL}
//               {type: 'run', id, text, options, token, base}   options as JSON or undefined;
//                 token names the answer, base an earlier one the loader holds (wasm/doc.go)
//               {type: 'tool', id, name, text, options}   options as JSON or undefined
//               {type: 'fault', id, name}
//               {type: 'stop'}   on the page's thread only: stop the run in progress
// Messages out: {type: 'ready', version} | {type: 'failed', message}
//               {type: 'result', id, json} | {type: 'fault', id, error}
//                 (a tool's answer is a result too: its json is a ToolAnswer)
//               {type: 'crashed', id, message}       the Go program died or trapped

export function host(post, loadGo) {
  let api = null;
  let go = null;
  return async (msg) => {
    switch (msg.type) {
      case 'start': {
        try {
          await loadGo(msg.wasmExecURL);
          go = new globalThis.Go();
          const registered = new Promise((resolve) => { globalThis.__genplayOnReady = resolve; });
          const instance = await WebAssembly.instantiate(msg.module, go.importObject);
          const exited = go.run(instance).catch((e) => e).then((why) => {
            api = null;
            post({ type: 'crashed', id: null, message: why instanceof Error ? why.message : 'the Go program exited' });
          });
          await Promise.race([registered, exited.then(() => { throw new Error('the engine exited while starting'); })]);
          api = globalThis.__genplayWasm;
          post({ type: 'ready', version: String(api.version), tools: String(api.tools || '') });
        } catch (e) {
          post({ type: 'failed', message: e.message });
        }
        return;
      }
      case 'run':
      case 'tool': {
        if (!api) { post({ type: 'crashed', id: msg.id, message: 'the engine is not running' }); return; }
        if (msg.type === 'tool' && typeof api.tool !== 'function') {
          post({ type: 'result', id: msg.id, json: JSON.stringify({ tool: msg.name, error: 'this build of genplay has no tools; they are in the tools build' }) });
          return;
        }
        let out;
        try {
          if (msg.type === 'tool') out = api.tool(msg.name, msg.text, msg.options);
          // On the page's thread the run yields to the page and can be
          // stopped (runAsync, stop: wasm/async.go).
          else if (msg.inPage && typeof api.runAsync === 'function') out = await api.runAsync(msg.text, msg.options, msg.token, msg.base);
          else out = api.run(msg.text, msg.options, msg.token, msg.base);
        } catch (e) {
          api = null; // a trap leaves the Go runtime in an unknown state
          post({ type: 'crashed', id: msg.id, message: e.message });
          return;
        }
        if (go.exited || typeof out !== 'string') {
          api = null;
          post({ type: 'crashed', id: msg.id, message: 'the Go program exited during run' });
          return;
        }
        post({ type: 'result', id: msg.id, json: out });
        return;
      }
      case 'stop':
        // Not queued behind the run: it cancels the run in progress.
        if (api && typeof api.stop === 'function') api.stop();
        return;
      case 'fault':
        post({ type: 'fault', id: msg.id, error: api ? String(api.injectFault(msg.name)) : 'the engine is not running' });
        return;
      default:
    }
  };
}

// In a worker: serve the loader.
if (typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope) {
  const serve = host((m) => globalThis.postMessage(m), async (url) => { if (!globalThis.Go) globalThis.importScripts(url); });
  // One message at a time, in order: a run waits for the start to finish.
  let chain = Promise.resolve();
  globalThis.onmessage = (ev) => { chain = chain.then(() => serve(ev.data)); };
}
