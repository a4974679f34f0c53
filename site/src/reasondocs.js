// How a timeline reason is shown: the Kyverno documentation section it
// comes from (the one place reasons are mapped to kyverno.io), and its
// citations as links: "(Kyverno's code: URL)", which the engine writes
// where a reason names the part of Kyverno that decided (a line of
// kyverno/kyverno at the simulated release, engine/internal/upstream), and
// kyverno#NNNN, an issue. An event is keyed by its policy's family (the
// kind in its policy key), then by the first pattern its reason (and
// action) matches; a reason no section covers gets no documentation link.
import { h } from './dom.js';

const CPOL = 'https://kyverno.io/docs/policy-types/cluster-policy/generate/';
const GPOL = 'https://kyverno.io/docs/policy-types/generating-policy/';

// [pattern on "action: reason", anchor, section title], first match wins.
const sections = {
  legacy: [
    [/clonelist/i, 'cloning-multiple-resources', 'Cloning Multiple Resources'],
    [/foreach/i, 'foreach', 'foreach'],
    [/generateexisting|background scan/i, 'generate-for-existing-resources', 'Generate for Existing resources'],
    [/trigger was deleted|trigger (no longer|still) match|stopped matching/i, 'linking-trigger-with-downstream', 'Linking trigger with downstream'],
    [/clone source|clone-source/i, 'clone-source', 'Clone Source'],
    [/orphan|synchroni[sz]e|policy was deleted|^(recreated|reverted):/i, 'data-source', 'Data Source: what synchronize and orphaning do'],
    [/updaterequest/i, 'how-it-works', 'How It Works'],
    [/^created: the rule matched/i, '', 'Generate Rules'],
  ],
  cel: [
    [/generateexisting/i, 'generating-for-existing-resources', 'Generating for Existing Resources'],
    [/clone source|\bclones?\b/i, 'synchronization-with-a-clone-source', 'Synchronization with a Clone Source'],
    [/orphan|synchroni[sz]e|re-sync|^(recreated|reverted):/i, 'synchronization', 'Synchronization'],
    [/only matches resources in its own namespace/i, 'policy-scope', 'Policy Scope'],
    [/generator\.apply/i, 'generator-library', 'Generator Library'],
    [/updaterequest failed/i, '', 'GeneratingPolicy'],
  ],
};

// docFor returns {url, title} for an event, or null.
export function docFor(e) {
  if (!e || !e.reason || !e.policy) return null;
  const kind = e.policy.split('/')[0];
  const family = kind === 'GeneratingPolicy' || kind === 'NamespacedGeneratingPolicy' ? 'cel'
    : kind === 'ClusterPolicy' || kind === 'Policy' ? 'legacy' : '';
  if (!family) return null;
  const key = `${e.action}: ${e.reason}`;
  for (const [pattern, anchor, title] of sections[family]) {
    if (pattern.test(key)) {
      const base = family === 'cel' ? GPOL : CPOL;
      return { url: anchor ? `${base}#${anchor}` : base, title };
    }
  }
  return null;
}

// docLink is the link an event's reason shows, or '' when there is none.
export function docLink(e) {
  const d = docFor(e);
  if (!d) return '';
  return h('a', { class: 'doc-link', href: d.url, target: '_blank', rel: 'noopener', title: `Kyverno docs: ${d.title}` }, `Kyverno docs: ${d.title} ↗`);
}

// citation matches what reasonText turns into links.
const citation = /\(Kyverno's code: (https:\/\/github\.com\/kyverno\/kyverno\/blob\/([^/\s]+)\/([^\s#)]+)#L(\d+))\)|\bkyverno#(\d+)/g;

/**
 * reasonText is a reason as text and links: a citation of Kyverno's code
 * becomes "Kyverno's code: FILE:LINE ↗" linking to it, an issue number
 * kyverno#N links to the issue. Everything else stays text.
 */
export function reasonText(reason) {
  const out = [];
  let at = 0;
  for (const m of (reason || '').matchAll(citation)) {
    out.push(reason.slice(at, m.index));
    if (m[1]) {
      const file = m[3].split('/').pop();
      out.push('(', h('a', {
        class: 'code-link', href: m[1], target: '_blank', rel: 'noopener',
        title: `Kyverno ${m[2]}: ${m[3]}, line ${m[4]}`,
      }, `Kyverno's code: ${file}:${m[4]} ↗`), ')');
    } else {
      out.push(h('a', { class: 'issue-link', href: `https://github.com/kyverno/kyverno/issues/${m[5]}`, target: '_blank', rel: 'noopener' }, `kyverno#${m[5]}`));
    }
    at = m.index + m[0].length;
  }
  out.push(reason.slice(at));
  return out.filter((x) => x !== '');
}
