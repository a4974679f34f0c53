// The genplay loader: compiles genplay.wasm once and installs
// globalThis.genplay = {version, ready, run, stop, crashed, running,
// deadlineMs, restart, injectFault}. The engine runs in a Web Worker
// (worker.js), so the page never freezes: a run past its deadline, or one
// the user stops, is ended by terminating the worker and starting a fresh
// one. The contract is documented once, in wasm/doc.go.
import { host } from './worker.js';

const FORMAT = 'genplay.timeline/v2';
// How many answers a loader keeps as bases; the bridge remembers as many
// (wasm/bridge: keepAnswers).
const KEEP_ANSWERS = 8;
const internal = (message) => ({
  format: FORMAT, test: '', initial: [], steps: null, passed: false,
  diagnostics: [{ file: '', line: 0, column: 0, severity: 'error', message }],
});
const stoppedResult = (why, message) => ({
  format: FORMAT, test: '', initial: [], steps: [], passed: false, stopped: why,
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

// spawn starts an engine host: a Worker from workerURL when it has the
// page's origin; on another origin (a documentation page embedding a
// player: a Worker must come from the page's own origin, and a blob:
// Worker would need that page's CSP to allow it) the host runs on the
// page's own thread. There a run gives the page's event loop a turn every
// few tens of milliseconds, so the page stays responsive, and stop()
// cancels it: the engine ends it at its next look and answers.
function spawn(workerURL, onmessage) {
  if (workerURL && new URL(workerURL, location.href).origin === location.origin) {
    const w = new Worker(workerURL);
    w.onmessage = (ev) => onmessage(ev.data);
    w.onerror = (ev) => { ev.preventDefault(); onmessage({ type: 'crashed', id: null, message: ev.message || 'the worker failed' }); };
    return { post: (m) => w.postMessage(m), terminate: () => w.terminate(), stoppable: true };
  }
  let alive = true;
  const serve = host((m) => { if (alive) queueMicrotask(() => onmessage(m)); }, async (url) => { if (!globalThis.Go) await loadScript(url); });
  let chain = Promise.resolve();
  return {
    post: (m) => { chain = chain.then(() => serve({ ...m, inPage: true })); },
    stop: () => serve({ type: 'stop' }), // not chained: the run in progress is what it stops
    terminate: () => { alive = false; },
    stoppable: true,
  };
}

/**
 * createEngine starts loading one build of the engine and returns its API
 * (the shape of globalThis.genplay, without the switch between builds).
 * @param {{wasmURL: string, wasmExecURL: string, workerURL?: string, deadlineMs?: number}} where
 */
function createEngine({ wasmURL, wasmExecURL, workerURL, deadlineMs = 20000 }) {
  let module = null; // the compiled wasm, sent to every new engine
  let engine = null; // the running host: {post, terminate, stoppable}
  let started = null; // {resolve, reject} of the host being started
  let starting = null; // the promise of a start in progress
  let nextID = 1;
  let current = null; // the run being computed: {id, resolve, timer}
  const queue = []; // runs and tool calls waiting for the engine: {id, type, name?, text, options, resolve}
  const faults = new Map(); // id -> resolve
  // The engine's latest answers, by token: a run names one as its base and
  // the engine leaves out the steps (and initial objects) that are the same
  // in it (bridge.RunSince), which are put back here. So a run after an
  // edit at the end of the scenario transfers only what changed, and the
  // steps that did not change are the same objects as before.
  let nextToken = 1;
  const answers = new Map(); // token -> result, oldest first, at most KEEP_ANSWERS
  const latest = new Map(); // options JSON -> the token of its latest answer
  let lastToken = '';

  const onmessage = (m) => {
    switch (m.type) {
      case 'ready':
        api.version = m.version;
        api.tools = m.tools ? m.tools.split(',') : [];
        started?.resolve();
        return;
      case 'failed':
        started?.reject(new Error(m.message));
        return;
      case 'result':
        if (current?.id !== m.id) return;
        clearTimeout(current.timer);
        try {
          const r = JSON.parse(m.json);
          if (current.type === 'run') keep(current, r);
          // A run stopped on the page's thread answers as a stopped run.
          current.resolve(current.stopping ? stopped(current.stopping, r) : r);
        } catch (e) {
          const message = `internal error: ${e.message}`;
          current.resolve(current.type === 'tool' ? { tool: current.name, error: message } : internal(message));
        }
        current = null;
        pump();
        return;
      case 'fault':
        faults.get(m.id)?.(m.error);
        faults.delete(m.id);
        return;
      case 'crashed':
        if (started && !engine) { started.reject(new Error(m.message)); return; }
        crash(m.message);
        return;
      default:
    }
  };

  // start runs a fresh engine and resolves once it has registered.
  const start = async () => {
    const host = spawn(workerURL, onmessage);
    const ready = new Promise((resolve, reject) => { started = { resolve, reject }; });
    host.post({ type: 'start', module, wasmExecURL });
    try {
      await ready;
    } catch (e) {
      host.terminate();
      throw e;
    } finally {
      started = null;
    }
    engine = host;
    api.crashed = false;
    answers.clear(); // a fresh engine remembers none of them
    latest.clear();
    lastToken = '';
    pump();
  };

  // keep puts back what an answer left out (its "reuse": the leading steps
  // and the initial objects of its base) and keeps it as a base for later
  // runs.
  const keep = (run, r) => {
    if (r.reuse) {
      const base = answers.get(r.reuse.base);
      if (!base) throw new Error(`the engine reused answer ${r.reuse.base}, which the loader no longer holds`);
      r.steps = base.steps.slice(0, r.reuse.steps).concat(r.steps);
      if (r.reuse.initial) r.initial = base.initial;
      delete r.reuse;
    }
    if (!Array.isArray(r.steps) || !run.token) return;
    answers.set(run.token, r);
    latest.set(run.options ?? '', run.token);
    lastToken = run.token;
    while (answers.size > KEEP_ANSWERS) answers.delete(answers.keys().next().value);
  };

  // pump sends the next queued run to an idle engine, with its deadline.
  const pump = () => {
    api.running = !!current;
    if (current || !engine || queue.length === 0) return;
    current = queue.shift();
    api.running = true;
    current.timer = setTimeout(() => halt('deadline'), api.deadlineMs);
    if (current.type === 'run') {
      current.token = String(nextToken++);
      const base = latest.get(current.options ?? '') || lastToken;
      current.base = answers.has(base) ? base : '';
    }
    engine.post({ type: current.type, id: current.id, name: current.name, text: current.text, options: current.options, token: current.token, base: current.base });
  };

  // settleAll answers every waiting run (a tool call with the Result's
  // message as its error).
  const settleAll = (result) => {
    const answer = (r, running) => {
      const res = result(running);
      r.resolve(r.type === 'tool' ? { tool: r.name, error: res.diagnostics[0].message, stopped: res.stopped } : res);
    };
    if (current) { clearTimeout(current.timer); answer(current, true); current = null; }
    for (const r of queue.splice(0)) answer(r, false);
    api.running = false;
  };
  // enqueue queues a run or a tool call; options are sent as JSON. An
  // AbortSignal (control.signal) stops this call only: a queued one leaves
  // the queue unrun, a running one is halted as stop() halts it.
  const enqueue = (type, name, text, options, failed, control) => {
    const signal = control?.signal;
    if (signal?.aborted) return Promise.resolve(answerOf({ type, name }, 'user', 'stopped: you stopped the run before it started; your scenario is kept'));
    if (api.crashed) return Promise.resolve(failed('internal error: the engine stopped after a crash and is not running; call genplay.restart()'));
    if (!engine && !starting) return Promise.resolve(failed('engine not ready: await genplay.ready'));
    let opts;
    try {
      opts = options === undefined || options === null ? undefined : JSON.stringify(options);
    } catch (e) {
      return Promise.resolve(failed(`options: ${e.message}`));
    }
    return new Promise((resolve) => {
      const entry = { id: nextID++, type, name, text, options: opts, resolve };
      signal?.addEventListener('abort', () => cancel(entry), { once: true });
      queue.push(entry);
      pump();
    });
  };
  // cancel stops one call: halts it when it runs, else takes it out of the
  // queue and answers it as stopped.
  const cancel = (entry) => {
    if (current === entry) return halt('user');
    const i = queue.indexOf(entry);
    if (i < 0) return Promise.resolve(false);
    queue.splice(i, 1);
    entry.resolve(answerOf(entry, 'user', 'stopped: you stopped the run before it started; your scenario is kept'));
    return Promise.resolve(true);
  };

  // answerOf is a stopped call's answer: a Result for a run, an error for a
  // tool call.
  const answerOf = (entry, why, message, test = '') => (entry.type === 'tool'
    ? { tool: entry.name, error: message, stopped: why }
    : { ...stoppedResult(why, message), test });

  // stopped is what a stopped run answers: its result, or for a tool call
  // an error, that says why.
  const stopped = (why, r) => {
    const s = (api.deadlineMs / 1000).toFixed(api.deadlineMs % 1000 ? 1 : 0);
    const message = why === 'deadline'
      ? `stopped: the run took longer than ${s} s, so genplay stopped it; your scenario is kept`
      : 'stopped: you stopped the run; your scenario is kept';
    return answerOf(current, why, message, r?.test || '');
  };

  // halt ends the running run: on the page's thread by cancelling it (the
  // engine answers at its next look); in a worker by terminating it and
  // starting a fresh engine, which then serves the runs waiting (another
  // player's run on the same page is not this one).
  const halt = (why) => {
    if (!current || !engine?.stoppable) return Promise.resolve(false);
    if (engine.stop) {
      if (!current.stopping) {
        current.stopping = why;
        clearTimeout(current.timer);
        engine.stop();
      }
      return Promise.resolve(true);
    }
    engine.terminate();
    engine = null;
    const s = (api.deadlineMs / 1000).toFixed(api.deadlineMs % 1000 ? 1 : 0);
    const r = current;
    current = null;
    api.running = false;
    clearTimeout(r.timer);
    r.resolve(answerOf(r, why, why === 'deadline'
      ? `stopped: the run took longer than ${s} s, so genplay stopped the engine and started a fresh one; your scenario is kept`
      : 'stopped: you stopped the run; genplay stopped the engine and started a fresh one; your scenario is kept'));
    return api.restart().then(() => true);
  };

  // crash marks the running engine dead and tells the page once.
  const crash = (why) => {
    if (!engine) return;
    engine.terminate();
    engine = null;
    api.crashed = true;
    settleAll((running) => internal(running
      ? `internal error: the engine crashed during this run (${why})`
      : 'internal error: the engine stopped after a crash and is not running; call genplay.restart()'));
    console.warn(`genplay: the engine crashed (${why}); call genplay.restart()`);
    globalThis.dispatchEvent(new CustomEvent('genplay:crash', { detail: { message: why } }));
  };

  const api = {
    version: '',
    ready: null,
    crashed: false,
    running: false,
    deadlineMs,
    tools: [],
    run(text, options, control) { return enqueue('run', undefined, text, options, internal, control); },
    tool(name, text, options) { return enqueue('tool', name, text, options, (error) => ({ tool: name, error })); },
    stop() { return halt('user'); },
    injectFault(name) {
      if (!engine) return Promise.resolve('the engine is not running');
      const id = nextID++;
      return new Promise((resolve) => { faults.set(id, resolve); engine.post({ type: 'fault', id, name }); });
    },
    restart() {
      if (engine) return Promise.resolve();
      if (!starting) starting = api.ready.catch(() => {}).then(start).finally(() => { starting = null; });
      return starting;
    },
  };
  api.ready = (async () => {
    module = await compile(wasmURL);
    starting = start();
    try { await starting; } finally { starting = null; }
  })();
  return api;
}

// needsFull says why the text needs the full build, or '' when the core
// one runs it: 'cel' when it holds a policies.kyverno.io object (a
// GeneratingPolicy, a NamespacedGeneratingPolicy, a CEL PolicyException),
// 'shell' when it has a chainsaw script or command operation (a list item
// that starts with script: or command:), which only the full build's shell
// runs. A false positive (a comment) only costs a download.
export const needsFull = (text) => {
  if (typeof text !== 'string') return '';
  if (/policies\.kyverno\.io\//.test(text)) return 'cel';
  return /^[ \t]*- +(script|command):/m.test(text) ? 'shell' : '';
};
// coreLacks says why the core build's answer is that of a scenario it could
// not see coming ('cel': it has no CEL engine; 'shell': no shell), or ''.
const coreLacks = (r) => {
  if (typeof r?.skipped !== 'string') return '';
  if (r.skipped.includes('no CEL engine')) return 'cel';
  return r.skipped.includes('has no shell') ? 'shell' : '';
};

/**
 * install defines globalThis.genplay and starts loading the core build. With
 * fullWasmURL, the full build (with the CEL family and the shell that runs
 * script and command operations) is fetched the first time a run needs it:
 * the text holds a policies.kyverno.io object or a script or command
 * operation (needsFull), or the core build answers that it has no CEL
 * engine or no shell (coreLacks). From then on the full build serves every
 * run. With toolsWasmURL, the tools build (the full build and the
 * authoring tools) is fetched the first time a tool is called (without it,
 * the full build answers tool calls); when the full build is not loaded,
 * the tools build serves runs too. While it loads,
 * genplay.loadingCEL is true; the loader dispatches "genplay:cel-loading"
 * (detail.why: 'cel', 'shell' or 'tool') and then "genplay:cel-ready" (or
 * "genplay:cel-failed", and the run answers with the core's result and a
 * diagnostic that says why) on globalThis.
 *
 * With defer, nothing loads until genplay.start(text): a page that knows its
 * first scenario needs the full build then loads it alone (it runs
 * everything the core one does), not the core one too; the core build is
 * the fallback when the full one does not load.
 * @param {{wasmURL: string, fullWasmURL?: string, toolsWasmURL?: string, wasmExecURL: string, workerURL?: string, deadlineMs?: number, defer?: boolean}} where
 */
export function install(where) {
  if (globalThis.genplay) return globalThis.genplay;
  let deadline = where.deadlineMs ?? 20000;
  let core = null;
  const coreEngine = () => { core ||= createEngine({ ...where, deadlineMs: deadline }); return core; };
  let full = null; // the full build's API once it is ready
  let loading = null; // the promise of the full build
  const active = () => full || coreEngine();
  let tools = null; // the tools build's API once it is ready
  let loadingTools = null; // the promise of the tools build
  // loadTools loads the build with the authoring tools: the tools build
  // (toolsWasmURL), a superset of the full one, which then serves runs too
  // when the full build is not loaded; without toolsWasmURL, the full build.
  const loadTools = () => {
    if (!where.toolsWasmURL) return loadFull('tool').then(() => full);
    if (!loadingTools) {
      api.loadingCEL = true;
      globalThis.dispatchEvent(new CustomEvent('genplay:cel-loading', { detail: { why: 'tool' } }));
      const engine = createEngine({ ...where, wasmURL: where.toolsWasmURL, deadlineMs: deadline });
      loadingTools = engine.ready.then(() => {
        tools = engine;
        full ||= engine;
        globalThis.dispatchEvent(new CustomEvent('genplay:cel-ready'));
        return engine;
      }, (e) => {
        loadingTools = null; // the next tool call tries again
        globalThis.dispatchEvent(new CustomEvent('genplay:cel-failed', { detail: { message: e.message } }));
        throw e;
      }).finally(() => { api.loadingCEL = !!loading && !full; });
    }
    return loadingTools;
  };
  const loadFull = (why) => {
    if (!loading) {
      api.loadingCEL = true;
      globalThis.dispatchEvent(new CustomEvent('genplay:cel-loading', { detail: { why } }));
      const engine = createEngine({ ...where, wasmURL: where.fullWasmURL, deadlineMs: deadline });
      loading = engine.ready.then(() => {
        full = engine;
        globalThis.dispatchEvent(new CustomEvent('genplay:cel-ready'));
      }, (e) => {
        loading = null; // the next CEL run tries again
        globalThis.dispatchEvent(new CustomEvent('genplay:cel-failed', { detail: { message: e.message } }));
        throw e;
      }).finally(() => { api.loadingCEL = false; });
    }
    return loading;
  };
  const withFull = async (why, text, options, fallback, control) => {
    try {
      await loadFull(why);
    } catch (e) {
      const r = fallback || await coreEngine().run(text, options, control);
      const what = why === 'shell' ? 'the engine with the shell (script and command operations)' : 'the CEL engine';
      r.diagnostics = [...(r.diagnostics || []), { file: '', line: 0, column: 0, severity: 'error', message: `cannot load ${what}: ${e.message}` }];
      return r;
    }
    return full.run(text, options, control);
  };
  // start loads the build the first scenario needs, once; ready follows it.
  let started = null;
  let settle;
  const ready = new Promise((resolve, reject) => { settle = { resolve, reject }; });
  const start = (text) => {
    if (!started) {
      const why = needsFull(text);
      started = why && where.fullWasmURL
        ? loadFull(why).catch(() => coreEngine().ready)
        : coreEngine().ready;
      started.then(settle.resolve, settle.reject);
    }
    return ready;
  };
  const api = {
    get version() { return active().version; },
    ready,
    start,
    get crashed() { return active().crashed; },
    get running() { return !!core?.running || !!full?.running || !!tools?.running; },
    get deadlineMs() { return deadline; },
    set deadlineMs(ms) {
      deadline = ms;
      for (const e of new Set([core, full, tools])) if (e) e.deadlineMs = ms;
    },
    get build() { return full ? 'full' : 'core'; },
    loadingCEL: false,
    async run(text, options, control) {
      if (full || !where.fullWasmURL) return active().run(text, options, control);
      const why = needsFull(text);
      if (why) return withFull(why, text, options, undefined, control);
      const r = await coreEngine().run(text, options, control);
      const lacks = coreLacks(r);
      return lacks ? withFull(lacks, text, options, r, control) : r;
    },
    // tool calls an authoring tool: in a loaded build that has it, else in
    // the tools build (loaded first, with the same events as for CEL; the
    // full build on a page without toolsWasmURL).
    async tool(name, text, options) {
      await ready.catch(() => {});
      if (tools) return tools.tool(name, text, options);
      if (!where.toolsWasmURL && !where.fullWasmURL) return active().tool(name, text, options);
      if (full?.tools.includes(name)) return full.tool(name, text, options);
      await coreEngine().ready.catch(() => {});
      if (core.tools.includes(name)) return core.tool(name, text, options);
      let engine;
      try {
        engine = await loadTools();
      } catch (e) {
        return { tool: name, error: `cannot load the engine's tools: ${e.message}` };
      }
      return engine.tool(name, text, options);
    },
    get tools() { return (tools || full || core)?.tools || []; },
    loadCEL() { return where.fullWasmURL ? loadFull('cel') : Promise.reject(new Error('this page has no CEL build')); },
    // stop stops the run or tool call in progress, in whichever build.
    async stop() {
      const stopped = await Promise.all([...new Set([core, full, tools])].filter(Boolean).map((e) => e.stop()));
      return stopped.some(Boolean);
    },
    injectFault(name) { return active().injectFault(name); },
    restart() { return active().restart(); },
  };
  if (!where.defer) start('');
  globalThis.genplay = api;
  return api;
}
