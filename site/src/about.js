// "About the simulation": the Kyverno releases genplay simulates, the
// behaviour changes between them, and where the simulation knowingly
// differs from Kyverno. about.json is generated from engine's releases and
// changes (engine/internal/upstream) and engine/doc.go (site/aboutgen; make
// site), so there is one source of the text.
import { h } from './dom.js';
import about from './about.json';

// setupAbout adds the button after anchor and its dialog.
export function setupAbout({ anchor }) {
  const close = h('button', { id: 'about-close', type: 'button' }, 'Close');
  const dialog = h('dialog', { id: 'about-dialog', class: 'about-dialog', 'aria-labelledby': 'about-title' },
    h('form', { method: 'dialog', class: 'dialog-form' },
      h('h2', { id: 'about-title' }, 'About the simulation'),
      h('p', { id: 'about-version' }, 'genplay simulates ', h('strong', {}, `Kyverno ${about.versions.map((v) => v.version).join(', ')}`),
        ` (the default is the latest, ${about.kyverno}; the picker next to the examples chooses)`,
        ': their generate rules (ClusterPolicy and Policy) and GeneratingPolicies, the admission webhook, UpdateRequests and the background controller, in a simulated cluster. ',
        'Kyverno’s documentation: ',
        h('a', { href: 'https://kyverno.io/docs/policy-types/cluster-policy/generate/', target: '_blank', rel: 'noopener' }, 'generate rules'), ', ',
        h('a', { href: 'https://kyverno.io/docs/policy-types/generating-policy/', target: '_blank', rel: 'noopener' }, 'GeneratingPolicy'), '.'),
      h('h3', {}, 'The releases and what changed between them'),
      h('ul', { id: 'about-versions', class: 'about-versions' }, about.versions.map((v) => h('li', {},
        h('strong', {}, v.version), ` (${v.date}): ${v.summary}`,
        h('ul', {}, about.changes.filter((c) => c.since === v.version).map((c) => h('li', { dataset: { change: c.id } },
          h('a', { href: c.url, target: '_blank', rel: 'noopener' }, c.id), ` (${c.family}) ${c.title}: before, Kyverno would ${c.before}; from ${c.since}, it would ${c.after}.`)))))),
      h('h3', {}, about.heading),
      about.intro.map((p) => h('p', { class: 'sub' }, p)),
      h('ul', { id: 'about-differences', class: 'about-differences' }, about.differences.map((d) => h('li', {}, d))),
      h('p', { class: 'sub' }, `This list is ${about.source}, the one place these differences are written.`),
      h('div', { class: 'dialog-buttons' }, close)));
  document.body.append(dialog);
  const button = h('button', { id: 'about', type: 'button' }, 'About the simulation');
  anchor.after(' ', button);
  button.addEventListener('click', () => dialog.showModal());
  close.addEventListener('click', () => dialog.close());
  return { button, dialog };
}
