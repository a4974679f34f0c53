// Scenario editing: the playground's actions are chainsaw operations appended
// to the Test as new steps, so the scenario stays a runnable chainsaw test.
import YAML from 'yaml';

/** parse returns the YAML document of a scenario, or throws on a syntax error. */
function parse(text) {
  const doc = YAML.parseDocument(text);
  if (doc.errors.length) throw new Error(doc.errors[0].message);
  return doc;
}

/** appendStep adds `- name: NAME, try: [OPERATION]` to spec.steps. */
export function appendStep(text, name, operation) {
  const doc = parse(text);
  const step = doc.createNode({ name, try: [operation] });
  const steps = doc.getIn(['spec', 'steps']);
  if (YAML.isSeq(steps)) {
    steps.flow = false;
    steps.items.push(step);
  } else {
    doc.setIn(['spec', 'steps'], doc.createNode([{ name, try: [operation] }]));
  }
  return doc.toString({ lineWidth: 0 });
}

/** testName reads metadata.name, for file names. */
export function testName(text) {
  try {
    const name = parse(text).getIn(['metadata', 'name']);
    return typeof name === 'string' && /^[a-z0-9.-]+$/i.test(name) ? name : 'scenario';
  } catch {
    return 'scenario';
  }
}

export const refOf = (o) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
  name: o.metadata?.name,
});

export const refString = (r) => (r.namespace ? `${r.kind} ${r.namespace}/${r.name}` : `${r.kind} ${r.name}`);

const serverFields = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'selfLink', 'deletionTimestamp'];

/** manifest is the object as a user would write it: no server-set fields, no status. */
export function manifest(o) {
  const m = structuredClone(o);
  for (const f of serverFields) delete m.metadata?.[f];
  delete m.status;
  return m;
}

export const ops = {
  delete: (o) => ({ delete: { ref: refOf(o) } }),
  update: (m) => ({ update: { resource: m } }),
  create: (m) => ({ create: { resource: m } }),
  apply: (m) => ({ apply: { resource: m } }),
  sleep: (duration) => ({ sleep: { duration } }),
};

export const toYAML = (v) => YAML.stringify(v, { lineWidth: 0 });

/** fromYAML parses one object, throwing a readable error. */
export function fromYAML(text) {
  const doc = parse(text);
  const v = doc.toJS();
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('expected one object (a mapping)');
  if (!v.apiVersion || !v.kind || !v.metadata?.name) throw new Error('the object needs apiVersion, kind and metadata.name');
  return v;
}
