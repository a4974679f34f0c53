// Unit tests of relations.js: what Kyverno's labels link in a cluster
// snapshot, and the scenario lines that name related objects (node --test,
// run by make test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { links, related, lines } from './relations.js';

const L = 'generate.kyverno.io/';
const ns = (name, uid) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid } });
const legacyPolicy = { apiVersion: 'kyverno.io/v1', kind: 'ClusterPolicy', metadata: { name: 'p', uid: 'p1' }, spec: { rules: [{ name: 'r' }] } };
const celPolicy = { apiVersion: 'policies.kyverno.io/v1', kind: 'GeneratingPolicy', metadata: { name: 'g', uid: 'g1' } };
const source = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'regcred', namespace: 'default', uid: 's1' } };
const legacyCopy = {
  apiVersion: 'v1', kind: 'Secret', metadata: {
    name: 'regcred', namespace: 'team-a', uid: 'c1',
    labels: { [`${L}policy-name`]: 'p', [`${L}rule-name`]: 'r', [`${L}trigger-uid`]: 'n1', [`${L}trigger-kind`]: 'Namespace',
      [`${L}trigger-name`]: 'team-a', [`${L}source-uid`]: 's1', [`${L}source-kind`]: 'Secret', [`${L}source-namespace`]: 'default' },
  },
};
const celDownstream = {
  apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: {
    name: 'default-deny', namespace: 'team-b', uid: 'd1',
    labels: { [`${L}policy-name`]: 'g', [`${L}trigger-uid`]: 'n2', [`${L}trigger-kind`]: 'Namespace', [`${L}trigger-name`]: 'team-b' },
  },
};

test('links reads both families\' labels: policy, rule or expression, trigger, clone source', () => {
  const cluster = [legacyPolicy, celPolicy, ns('team-a', 'n1'), ns('team-b', 'n2'), source, legacyCopy, celDownstream];
  const events = [{ actor: 'kyverno', action: 'created', object: { kind: 'NetworkPolicy', namespace: 'team-b', name: 'default-deny' }, policy: 'g', rule: 'spec.generate[0]' }];
  const list = links(cluster, events);
  assert.deepEqual(list.map((x) => [x.family, x.policy.key, x.rule, x.trigger.key, x.downstream.key, x.source?.key ?? null]), [
    ['legacy', 'ClusterPolicy p', 'r', 'Namespace team-a', 'Secret team-a/regcred', 'Secret default/regcred'],
    ['cel', 'GeneratingPolicy g', 'spec.generate[0]', 'Namespace team-b', 'NetworkPolicy team-b/default-deny', null],
  ]);
  assert.ok(list.every((x) => x.policy.obj && x.trigger.obj && !x.policy.gone));
});

test('links names what is gone from the labels and the events', () => {
  const list = links([legacyCopy], []);
  assert.equal(list[0].policy.key, 'ClusterPolicy p');
  assert.equal(list[0].policy.obj, null);
  assert.ok(list[0].policy.gone);
  assert.equal(list[0].trigger.key, 'Namespace team-a');
  assert.equal(list[0].source.key, 'Secret default/(uid s1)');
  const gone = links([celDownstream], [{ actor: 'kyverno', action: 'created', object: { kind: 'NetworkPolicy', namespace: 'team-b', name: 'default-deny' }, policy: 'NamespacedGeneratingPolicy/team-b/g', rule: 'spec.generate[0]' }]);
  assert.equal(gone[0].policy.key, 'NamespacedGeneratingPolicy team-b/g');
});

test('related says how each object relates to the selected one', () => {
  const list = links([legacyPolicy, ns('team-a', 'n1'), source, legacyCopy], []);
  const down = related(list, 'Secret team-a/regcred');
  assert.deepEqual(Object.fromEntries(down.roles), { 'Namespace team-a': 'trigger', 'ClusterPolicy p': 'policy', 'Secret default/regcred': 'source' });
  assert.deepEqual([...down.rules], ['ClusterPolicy p\nr']);
  assert.deepEqual(Object.fromEntries(related(list, 'Secret default/regcred').roles), { 'Secret team-a/regcred': 'copy' });
  assert.deepEqual(Object.fromEntries(related(list, 'Namespace team-a').roles), { 'Secret team-a/regcred': 'downstream' });
  assert.equal(related(list, null).roles.size, 0);
});

test('lines marks every write, check and delete of a related object, and the rule of the policy', () => {
  const text = `spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata: {name: p}
          spec:
            rules:
            - name: other
            - name: r
              generate: {kind: Secret}
    - apply:
        resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
    - assert:
        resource: {apiVersion: v1, kind: Secret, metadata: {name: regcred, namespace: team-a}}
  - try:
    - delete:
        ref: {apiVersion: v1, kind: Namespace, name: team-a}
`;
  const list = links([legacyPolicy, ns('team-a', 'n1'), source, legacyCopy], []);
  const got = lines(text, 'Secret team-a/regcred', related(list, 'Secret team-a/regcred'), list)
    .map((r) => [r.role, text.slice(r.from, r.to).split('\n')[0]]);
  assert.deepEqual(got, [
    ['rule', 'name: r'],
    ['trigger', '{apiVersion: v1, kind: Namespace, metadata: {name: team-a}}'],
    ['selected', '{apiVersion: v1, kind: Secret, metadata: {name: regcred, namespace: team-a}}'],
    ['trigger', '{apiVersion: v1, kind: Namespace, name: team-a}'],
  ]);
  assert.deepEqual(lines('spec: [', 'x', { roles: new Map(), rules: new Set() }, []), []);
});
