// genplay embed: turns scenario blocks in a documentation page into compact
// live players. A page includes one script (the stable loader /embed.js,
// which loads this bundle) and marks blocks:
//
//   <script type="text/x-genplay-scenario" data-title="...">chainsaw Test YAML</script>
//   <pre class="genplay-scenario" data-title="...">chainsaw Test YAML</pre>
//   <div class="genplay" data-src="scenario.yaml" data-title="..."></div>
//
// A <pre> block stays readable as text where JavaScript is off; with it,
// the player takes its place.
//
// Optional attributes: data-compare="synchronize" or
// "orphanDownstreamOnPolicyDelete" adds an on/off switch that reruns the
// scenario with that setting overridden; data-kyverno-version="v1.19.0"
// simulates that Kyverno release (default: the latest), and the player and
// its "Open in playground" link say so; data-compare="kyvernoVersion" adds
// a switch of the Kyverno releases genplay simulates, runs the scenario
// under every one (the playground's "Compare versions"), marks the steps in
// which they differ with the change that explains it, and says under the
// current step what the other releases do there. A script with a non-JavaScript type
// is never executed, so inline scenarios are safe under a strict CSP.
//
// Each player lives in a shadow root (the page's styles and ours do not mix),
// renders data only as text, and the engine (the wasm) loads once, when the
// first block scrolls into view. genplayEmbed.scan() picks up blocks a page
// adds later.
import { install, needsFull } from './genplay.js';
import { h, replace } from './dom.js';
import { encode, MAX_TEXT } from './share.js';
import { LABEL, refString, keyOf, isPolicy, isCELPolicy, isNamespace, labelsOf } from './objects.js';
import { errorsIn } from './result.js';
import css from './embed.css';
import { readerOf } from './reader.js';

const SCRIPT_TYPE = 'text/x-genplay-scenario';
const COMPARABLE = new Set(['synchronize', 'orphanDownstreamOnPolicyDelete']);
// RELEASES is the data-compare value of the switch of Kyverno releases.
const RELEASES = 'kyvernoVersion';

// This bundle lives in <root>/assets/; the loader, the playground, the wasm
// and wasm_exec.js are relative to <root>.
const scriptURL = document.currentScript?.src || new URL('assets/embed.js', location.href).href;
const root = new URL('../', scriptURL);

let engine = null;
function loadEngine() {
  engine ||= install({
    wasmURL: new URL(`assets/${__GENPLAY_WASM__}`, root).href,
    fullWasmURL: new URL(`assets/${__GENPLAY_WASM_CEL__}`, root).href,
    wasmExecURL: new URL('wasm_exec.js', root).href,
    workerURL: new URL(`assets/${__GENPLAY_WORKER__}`, root).href,
  });
  return engine;
}


// groupSteps folds the timeline's operations into the scenario's chainsaw
// steps: consecutive operations with the same step name.
function groupSteps(steps) {
  const groups = [];
  for (const s of steps || []) {
    const last = groups[groups.length - 1];
    if (last && s.stepName && last.name === s.stepName) last.ops.push(s);
    else groups.push({ name: s.stepName || s.summary, ops: [s] });
  }
  return groups;
}

// settingIn reads a generate setting as the scenario's policy first has it.
function settingIn(result, field) {
  const reader = readerOf(result);
  for (let i = 0; i < reader.steps.length; i++) {
    for (const o of reader.cluster(i)) {
      // A GeneratingPolicy's spec.evaluation.<field>.enabled.
      if (isCELPolicy(o)) return !!o.spec?.evaluation?.[field]?.enabled;
      if (!isPolicy(o)) continue;
      const rule = (o.spec?.rules || []).find((r) => r.generate);
      if (rule) return !!rule.generate[field];
    }
  }
  return false;
}

class Player {
  constructor(host, source) {
    this.host = host;
    this.source = source; // () => Promise<string>
    this.compare = COMPARABLE.has(host.dataset.compare) || host.dataset.compare === RELEASES ? host.dataset.compare : '';
    this.override = null; // the compared setting's value, null = as written
    this.kyverno = host.dataset.kyvernoVersion || ''; // the release to simulate; '' the latest
    this.releases = null; // with the releases switch: the scenario under every release (genplay.versions/v1)
    this.text = '';
    this.groups = [];
    this.pos = 0; // 0: before the first step; k: after step k
    this.started = false;

    const shadow = host.attachShadow({ mode: 'open' });
    if ('adoptedStyleSheets' in shadow && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      shadow.adoptedStyleSheets = [sheet];
    } else {
      shadow.append(h('style', {}, css));
    }
    const title = host.dataset.title || 'Live scenario';
    this.el = {
      title: h('span', { class: 'title' }, title),
      open: h('a', { class: 'open', target: '_blank', rel: 'noopener', href: root.href }, 'Open in playground ↗'),
      compare: h('div', { class: 'compare', role: 'group', hidden: !this.compare }),
      reset: h('button', { type: 'button', class: 'reset', disabled: true, onclick: () => this.go(0) }, '⟲ Reset'),
      back: h('button', { type: 'button', class: 'back', disabled: true, onclick: () => this.go(this.pos - 1) }, '◀ Back'),
      step: h('button', { type: 'button', class: 'step', disabled: true, onclick: () => this.go(this.pos + 1) }, 'Step ▶'),
      where: h('span', { class: 'where', 'aria-live': 'polite' }),
      stop: h('button', { type: 'button', class: 'stop', hidden: true, onclick: () => this.running?.abort() }, '■ Stop'),
      steps: h('ol', { class: 'steps', 'aria-label': 'Steps' }),
      cluster: h('ul', { class: 'cluster' }),
      clusterTitle: h('h4', {}, 'Cluster'),
      // A scrolling region: focusable, so that a keyboard can scroll it.
      timeline: h('ol', { class: 'timeline', tabindex: '0', 'aria-label': 'Timeline' }),
      status: h('p', { class: 'status', role: 'status' }, 'A live scenario: it loads when it scrolls into view.'),
    };
    const e = this.el;
    shadow.append(h('section', { class: 'player', 'aria-label': title },
      h('header', {}, e.title, e.open),
      e.compare,
      h('div', { class: 'controls', role: 'toolbar', 'aria-label': 'Step through the scenario' }, e.reset, e.back, e.step, e.where, e.stop),
      e.steps,
      h('div', { class: 'panes' },
        h('section', { class: 'pane' }, e.clusterTitle, e.cluster),
        h('section', { class: 'pane' }, h('h4', {}, 'Timeline'), e.timeline)),
      e.status));
    host.dataset.genplay = 'waiting';
    this.linkSeq = 0;
    this.updateLink(); // right before the player has scrolled into view
  }

  // updateLink points "Open in playground" at this scenario, with the
  // player's switch and its current step (the playground's #s=...&step=N).
  async updateLink() {
    const seq = ++this.linkSeq;
    let frag;
    try {
      frag = await encode(this.text || await this.source());
    } catch {
      return; // the link keeps pointing at the playground itself
    }
    if (seq !== this.linkSeq) return;
    const group = this.groups[this.pos - 1];
    let view = `&step=${group ? group.ops[group.ops.length - 1].index : 0}`;
    if (this.compare !== RELEASES && this.compare && this.override !== null) view += `&${this.compare}=${this.override}`;
    if (this.kyverno) view += `&kyverno=${encodeURIComponent(this.kyverno)}`;
    this.el.open.href = `${root.href}#${frag}${view}`;
  }

  async start() {
    if (this.started) return;
    this.started = true;
    this.host.dataset.genplay = 'loading';
    this.status('Loading the engine…');
    const genplay = loadEngine();
    // The scenario and the engine load side by side, and each failure is
    // said as what it is: a page's scenario file, or genplay's engine.
    const engineReady = genplay.ready.then(() => null, (e) => e);
    try {
      this.text = await this.source();
    } catch (e) {
      this.fail(`Cannot load the scenario: ${e.message}`);
      return;
    }
    const failed = await engineReady;
    if (failed) {
      this.fail(`Cannot load the genplay engine from ${root.origin}: ${failed.message}. ` +
        (root.origin !== location.origin
          ? 'A page on another site needs the genplay site to allow it (Access-Control-Allow-Origin on /assets/) and its own Content-Security-Policy to allow the genplay site (script-src, connect-src and \'wasm-unsafe-eval\').'
          : 'Reload the page to try again.'));
      this.host.dataset.failure = 'engine';
      return;
    }
    this.run();
  }

  async run() {
    const genplay = loadEngine();
    if (genplay.crashed) {
      genplay.restart().then(() => this.run(), (e) => this.fail(`The engine could not restart: ${e.message}`));
      this.status('Restarting the engine…');
      return;
    }
    const options = {};
    if (this.compare !== RELEASES && this.compare && this.override !== null) options.override = { [this.compare]: this.override };
    if (this.kyverno) options.kyvernoVersion = this.kyverno;
    const why = genplay.build === 'full' ? '' : needsFull(this.text);
    if (why) this.status(why === 'cel' ? 'Loading the CEL engine…' : 'Loading the full engine (kubectl for script steps)…');
    // A run that takes a while says so and can be stopped (the page stays
    // responsive meanwhile, in a worker or on its own thread).
    const slow = setTimeout(() => {
      this.status('Running the scenario…');
      this.el.stop.hidden = false;
      this.host.dataset.genplay = 'running';
    }, 500);
    // Stop stops this player's run, not another player's on the page
    // (they share one engine and queue behind each other).
    this.running = new AbortController();
    const result = await genplay.run(this.text, options, { signal: this.running.signal });
    this.running = null;
    clearTimeout(slow);
    this.el.stop.hidden = true;
    if (genplay.crashed && !this.retried) {
      // The engine died below the wasm boundary: restart it and try once more.
      this.retried = true;
      this.run();
      return;
    }
    if (result.stopped) {
      this.fail(result.diagnostics[0].message);
      this.host.dataset.genplay = 'stopped';
      return;
    }
    const errors = errorsIn(result);
    if (errors.length) {
      this.fail(errors.map((d) => `${d.line ? `line ${d.line}: ` : ''}${d.message.split('\n')[0]}`).join('\n'));
      return;
    }
    this.groups = groupSteps(result.steps);
    this.reader = readerOf(result);
    if (result.kyverno) {
      this.host.dataset.kyverno = result.kyverno;
      this.el.title.textContent = `${this.host.dataset.title || 'Live scenario'} (Kyverno ${result.kyverno})`;
    }
    if (this.compare === RELEASES) {
      if (!this.releases) this.compareReleases();
      this.renderCompare();
    } else if (this.compare && this.override === null) {
      this.override = settingIn(result, this.compare);
      this.renderCompare();
    }
    this.pos = Math.min(this.pos, this.groups.length);
    this.host.dataset.genplay = 'ready';
    this.host.dataset.runs = String(Number(this.host.dataset.runs || 0) + 1);
    this.status(result.passed ? '' : 'An assertion or operation of this scenario failed; see the timeline.');
    this.render();
    this.updateLink();
  }

  // compareReleases runs the scenario under every release, once: the
  // switch's releases and the steps in which they differ.
  async compareReleases() {
    if (this.comparing) return;
    this.comparing = true;
    const c = await loadEngine().run(this.text, { compareVersions: true });
    if (c?.format !== 'genplay.versions/v1') {
      this.comparing = false; // the player's own run says what failed; the next run tries again
      return;
    }
    this.releases = c;
    this.host.dataset.compared = 'true';
    this.renderCompare();
    this.render();
  }

  // differences are the compared steps of group g that differ between
  // releases (none before the comparison).
  differences(g) {
    return this.releases ? g.ops.map((op) => this.releases.steps[op.index]).filter((st) => st?.differs) : [];
  }

  // whyDiffers says why steps differ: the changes between releases that
  // explain them, or the earlier step they follow from.
  whyDiffers(steps) {
    const ids = [...new Set(steps.flatMap((st) => st.explained || []))];
    if (!ids.length) return 'Kyverno releases differ here: the clusters already differed after an earlier step.';
    const title = (id) => this.releases.changes.find((c) => c.id === id)?.title || '';
    return `Kyverno releases differ here: ${ids.map((id) => `${id} ${title(id)}`.trim()).join('; ')}.`;
  }

  renderCompare() {
    if (this.compare === RELEASES) {
      const c = this.releases;
      if (!c) return;
      const current = this.host.dataset.kyverno;
      const choice = (v) => h('button', {
        type: 'button',
        class: 'choice',
        dataset: { value: v },
        'aria-pressed': String(v === current),
        onclick: () => { if (v !== this.host.dataset.kyverno) { this.kyverno = v; this.host.dataset.kyverno = v; this.renderCompare(); this.run(); } },
      }, v);
      replace(this.el.compare, h('span', { class: 'label' }, 'Kyverno:'), c.versions.map(choice),
        h('span', { class: 'label' }, c.differs ? `${c.differs} of ${c.steps.length} operations differ between releases` : 'every release does the same here'));
      return;
    }
    const field = this.compare;
    const choice = (value) => h('button', {
      type: 'button',
      class: 'choice',
      dataset: { value: String(value) },
      'aria-pressed': String(this.override === value),
      onclick: () => { if (this.override !== value) { this.override = value; this.renderCompare(); this.run(); } },
    }, value ? 'true' : 'false');
    replace(this.el.compare, h('span', { class: 'label' }, `${field}:`), choice(true), choice(false));
  }

  go(pos) {
    this.pos = Math.min(Math.max(pos, 0), this.groups.length);
    this.render();
    this.updateLink();
  }

  render() {
    const n = this.groups.length;
    const e = this.el;
    e.reset.disabled = e.back.disabled = this.pos === 0;
    e.step.disabled = this.pos >= n;
    e.where.textContent = this.pos === 0 ? `before step 1 of ${n}` : `after step ${this.pos} of ${n}`;
    this.host.dataset.pos = String(this.pos);
    replace(e.steps, this.groups.map((g, i) => {
      const differs = this.differences(g);
      return h('li', { class: `${i < this.pos ? 'done' : ''}${differs.length ? ' differs' : ''}` },
        h('button', {
          type: 'button',
          'aria-current': i + 1 === this.pos ? 'step' : false,
          title: differs.length ? this.whyDiffers(differs) : false,
          onclick: () => this.go(i + 1),
        }, h('span', { class: 'no' }, `${i + 1}`), ' ', g.name, differs.length ? h('span', { class: 'badge differs' }, 'differs') : ''));
    }));
    this.renderCluster();
    this.renderTimeline();
  }

  renderCluster() {
    const e = this.el;
    const group = this.groups[this.pos - 1];
    if (!group) {
      e.clusterTitle.textContent = 'Cluster';
      replace(e.cluster, h('li', { class: 'empty' }, 'Nothing has happened yet. Press Step ▶.'));
      return;
    }
    e.clusterTitle.textContent = `Cluster after step ${this.pos}`;
    const last = group.ops[group.ops.length - 1];
    const cluster = this.reader.cluster(last.index);
    const changed = new Map();
    for (const op of group.ops) for (const c of op.changes || []) changed.set(refString(c.object), c.change);
    const used = new Set(cluster.map((o) => o.metadata?.namespace).filter(Boolean));
    const shown = cluster.filter((o) => !isNamespace(o) || used.has(o.metadata?.name) || changed.has(keyOf(o)));
    const hidden = cluster.length - shown.length;
    const present = new Set(cluster.map((o) => keyOf(o)));
    const gone = [...changed].filter(([ref, c]) => c === 'deleted' && !present.has(ref));
    replace(e.cluster,
      shown.map((o) => {
        const ref = keyOf(o);
        const labels = labelsOf(o);
        const change = changed.get(ref);
        return h('li', { class: 'object', dataset: { ref } },
          h('span', { class: 'kind' }, o.kind), ' ', h('span', { class: 'name' }, o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata?.name || ''),
          isPolicy(o) ? h('span', { class: 'badge policy' }, 'policy') : '',
          labels[`${LABEL}policy-name`] ? h('span', { class: 'badge generated', title: `generated by ${labels[`${LABEL}policy-name`]}` }, 'generated') : '',
          change ? h('span', { class: `badge ${change}` }, change) : '');
      }),
      gone.map(([ref]) => h('li', { class: 'object gone', dataset: { ref } }, h('s', {}, ref), h('span', { class: 'badge deleted' }, 'deleted'))),
      hidden ? h('li', { class: 'more' }, `+ ${hidden} empty namespace${hidden === 1 ? '' : 's'}`) : '');
  }

  renderTimeline() {
    const e = this.el;
    if (this.pos === 0) {
      replace(e.timeline, h('li', { class: 'empty' }, 'Each step lists what the user did and how Kyverno reacted, with the reason.'));
      return;
    }
    const items = this.groups.slice(0, this.pos).map((g, i) => h('li', { class: i + 1 === this.pos ? 'group current' : 'group' },
      h('div', { class: 'group-name' }, `${i + 1}. ${g.name}`),
      i + 1 === this.pos ? this.releasesHere(g) : '',
      h('ol', { class: 'events' }, g.ops.flatMap((op) => [
        ...(op.events || []).map((ev) => h('li', { class: `event ${ev.actor}`, dataset: { actor: ev.actor, action: ev.action } },
          h('span', { class: 'actor' }, ev.actor), ' ',
          h('span', { class: `action ${ev.action}` }, ev.action), ' ',
          ev.object ? h('span', { class: 'ref' }, refString(ev.object)) : '',
          ev.reason ? h('div', { class: 'reason' }, ev.reason) : '')),
        op.check ? h('li', { class: `check ${op.check.passed ? 'ok' : 'failed'}` }, `${op.check.passed ? '✓' : '✗'} ${op.summary}`,
          (op.check.failures || []).map((f) => h('div', { class: 'reason' }, f))) : '',
        op.error ? h('li', { class: 'check failed' }, `✗ ${op.summary}: ${op.error}`) : '',
      ]))));
    replace(e.timeline, items);
    // The current step from its start (its name, what the releases do
    // there, then its events), without scrolling the page.
    const current = e.timeline.querySelector('.group.current');
    e.timeline.scrollTop = current ? e.timeline.scrollTop + current.getBoundingClientRect().top - e.timeline.getBoundingClientRect().top : e.timeline.scrollHeight;
  }

  // releasesHere says, for a group whose step differs between releases,
  // what Kyverno did in it under each release (those that did the same
  // together) and the change that explains it.
  releasesHere(g) {
    const differs = this.differences(g);
    if (!differs.length) return '';
    const did = new Map(); // what Kyverno did -> the releases that did it
    for (const [k, v] of this.releases.versions.entries()) {
      const text = differs.map((st) => {
        const run = st.runs[k];
        if (!run?.ran) return 'did not run (the run stopped earlier)';
        const events = run.events.filter((ev) => ev.actor === 'kyverno').map((ev) => `${ev.action}${ev.object ? ` ${refString(ev.object)}` : ''}`);
        return events.join(', ') || 'did nothing';
      }).join('; ');
      did.set(text, [...(did.get(text) || []), v]);
    }
    return h('div', { class: 'releases' }, this.whyDiffers(differs),
      h('ul', {}, [...did].map(([text, versions]) => h('li', { dataset: { versions: versions.join(' ') } },
        h('span', { class: 'versions' }, versions.join(', ')), `: ${text}`))));
  }

  status(text) {
    this.el.status.textContent = text;
    this.el.status.hidden = !text;
    this.el.status.classList.remove('error');
  }

  fail(text) {
    this.host.dataset.genplay = 'error';
    this.el.status.textContent = text;
    this.el.status.hidden = false;
    this.el.status.classList.add('error');
  }
}

// sourceOf returns how to read a block's scenario text.
function sourceOf(el) {
  if (el.matches('pre.genplay-scenario')) {
    const text = el.textContent.replace(/^\s*\n/, '');
    return () => Promise.resolve(dedent(text));
  }
  if (el.matches(`script[type="${SCRIPT_TYPE}"]`)) {
    const text = el.textContent.replace(/^\s*\n/, '');
    return () => Promise.resolve(dedent(text));
  }
  const inner = el.querySelector(`script[type="${SCRIPT_TYPE}"]`);
  if (inner) return () => Promise.resolve(dedent(inner.textContent.replace(/^\s*\n/, '')));
  const src = el.dataset.src;
  return async () => {
    if (!src) throw new Error('the block has neither data-src nor an inline scenario');
    const response = await fetch(new URL(src, document.baseURI));
    if (!response.ok) throw new Error(`${src}: ${response.status} ${response.statusText}`);
    const text = await response.text();
    if (text.length > MAX_TEXT) throw new Error(`${src} is larger than ${MAX_TEXT} bytes`);
    return text;
  };
}

// dedent removes the indentation every line shares, so inline YAML can be
// indented like the HTML around it.
function dedent(text) {
  const lines = text.replace(/\s+$/, '').split('\n');
  const indents = lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return `${lines.map((l) => l.slice(cut)).join('\n')}\n`;
}

function players() {
  const found = [];
  for (const el of document.querySelectorAll(`script[type="${SCRIPT_TYPE}"], pre.genplay-scenario, .genplay`)) {
    if (el.dataset.genplayBound) continue;
    if (el.tagName === 'SCRIPT' && el.closest('.genplay')) continue; // the block's own scenario
    el.dataset.genplayBound = 'true';
    let host = el;
    if (el.tagName === 'SCRIPT' || el.tagName === 'PRE') {
      host = h('div', { class: 'genplay-player' });
      for (const k of ['title', 'compare', 'kyvernoVersion']) if (el.dataset[k]) host.dataset[k] = el.dataset[k];
      el.before(host);
      el.hidden = true; // a <pre>'s text, now the player's
    }
    found.push(new Player(host, sourceOf(el)));
  }
  return found;
}

let observer = null;
const byHost = new Map();

// scan turns the page's new scenario blocks into players; pages that add
// content later (client-side navigation) call genplayEmbed.scan() again.
function scan() {
  const list = players();
  if (!('IntersectionObserver' in globalThis)) {
    for (const p of list) p.start();
    return list.length;
  }
  observer ||= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      byHost.get(entry.target)?.start();
    }
  }, { rootMargin: '200px 0px' });
  for (const p of list) {
    byHost.set(p.host, p);
    observer.observe(p.host);
  }
  return list.length;
}

globalThis.genplayEmbed = { scan };
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan, { once: true });
else scan();
