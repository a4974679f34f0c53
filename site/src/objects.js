// What the playground and the embed know about the objects of a cluster
// snapshot: how an object is named (its ref, as the timeline's events name
// it), its labels, and which objects are Kyverno's generate policies of
// either family. Pure functions over plain objects: no DOM, no YAML.

// LABEL prefixes the labels Kyverno writes on what it generates.
export const LABEL = 'generate.kyverno.io/';

/** refOf is an object's reference as a chainsaw delete names it. */
export const refOf = (o) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
  name: o.metadata?.name,
});

/** refString is "Kind name" or "Kind namespace/name", as the timeline prints a ref. */
export const refString = (r) => (r.namespace ? `${r.kind} ${r.namespace}/${r.name}` : `${r.kind} ${r.name}`);

/** keyOf is an object's refString: the key the views select and mark it by. */
export const keyOf = (o) => refString(refOf(o));

export const labelsOf = (o) => o?.metadata?.labels || {};

/** isCELPolicy tells a GeneratingPolicy or NamespacedGeneratingPolicy (policies.kyverno.io). */
export const isCELPolicy = (o) => /^policies\.kyverno\.io\//.test(o?.apiVersion || '') &&
  (o.kind === 'GeneratingPolicy' || o.kind === 'NamespacedGeneratingPolicy');

/** isLegacyPolicy tells a ClusterPolicy or Policy (kyverno.io). */
export const isLegacyPolicy = (o) => /^kyverno\.io\//.test(o?.apiVersion || '') && (o.kind === 'ClusterPolicy' || o.kind === 'Policy');

export const isPolicy = (o) => isLegacyPolicy(o) || isCELPolicy(o);

export const isNamespace = (o) => o?.kind === 'Namespace' && o.apiVersion === 'v1';

/**
 * isKyvernoOwn tells Kyverno's own bookkeeping objects (an object or a
 * ref): its webhook configurations, policy reports and UpdateRequests,
 * which the views show apart from what the user and the policies made.
 */
export const isKyvernoOwn = (o) => {
  const api = o?.apiVersion || '';
  const kind = o?.kind || '';
  return (/^admissionregistration\.k8s\.io\//.test(api) && /WebhookConfiguration$/.test(kind)) ||
    (/^wgpolicyk8s\.io\//.test(api) && /PolicyReport$/.test(kind)) ||
    (/^(openreports\.io|reports\.kyverno\.io)\//.test(api)) ||
    (/^kyverno\.io\//.test(api) && kind === 'UpdateRequest');
};

/** celEnabled reads a CEL policy's spec.evaluation.<field>.enabled. */
export const celEnabled = (o, field) => !!o?.spec?.evaluation?.[field]?.enabled;
