// The Kyverno documentation section a timeline reason comes from: the one
// place the timeline's reasons are mapped to kyverno.io. An event is keyed
// by its policy's family (the kind in its policy key), then by the first
// pattern its reason (and action) matches; a reason no section covers gets
// no link.
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
