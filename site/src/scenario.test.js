// Unit tests of scenario.js, the playground's edits of the scenario text
// (node --test, run by make test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { appendStep, removeStep, stepNames, setGenerateFields, sourceResource, manifest, ops, fromYAML, testName } from './scenario.js';

const examplesDir = new URL('../examples/', import.meta.url);
const examples = JSON.parse(readFileSync(new URL('examples.json', examplesDir), 'utf8'))
  .map((e) => ({ ...e, text: readFileSync(new URL(e.file, examplesDir), 'utf8') }));

// The styles a scenario may come in: as written, JSON as kubectl prints it,
// one-line flow steps under a block document, and flow all the way down.
const styles = {
  yaml: (t) => t,
  json: (t) => `${JSON.stringify(YAML.parse(t), null, 4)}\n`,
  'compact json': (t) => JSON.stringify(YAML.parse(t)),
  'flow steps': (t) => {
    const doc = YAML.parseDocument(t);
    doc.getIn(['spec', 'steps'], true).flow = true;
    return doc.toString({ lineWidth: 0 });
  },
  'flow everywhere': (t) => {
    const doc = YAML.parseDocument(t);
    YAML.visit(doc, { Map(_, n) { n.flow = true; }, Seq(_, n) { n.flow = true; } });
    return doc.toString();
  },
};

const stepsOf = (text) => YAML.parse(text).spec.steps;
const deleteOp = ops.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });

test('appendStep keeps every step of every example, whatever the style, and adds the new one last', () => {
  for (const e of examples) {
    for (const [style, to] of Object.entries(styles)) {
      const text = to(e.text);
      const before = stepsOf(text);
      const policy = YAML.parse(e.text).spec.steps[0].try[0].apply?.resource ?? YAML.parse(e.text).spec.steps[0].try[0].create?.resource;
      const ref = { kind: policy.kind, name: policy.metadata.name, namespace: policy.metadata.namespace };
      const node = sourceResource(text, ref);
      assert.ok(node, `${e.file} (${style}): the scenario writes ${ref.kind} ${ref.name}`);
      node.setIn(['metadata', 'labels', 'edited'], 'yes');
      for (const [what, op] of [['delete', deleteOp], ['update of a node', ops.update(node)], ['sleep', ops.sleep('1h1m')]]) {
        const out = appendStep(text, `the ${what}`, op);
        const after = stepsOf(out);
        assert.equal(after.length, before.length + 1, `${e.file} (${style}, ${what}): one step more`);
        assert.deepEqual(after.slice(0, -1), before, `${e.file} (${style}, ${what}): the steps before are unchanged`);
        assert.equal(after.at(-1).name, `the ${what}`);
        assert.ok(out.startsWith(text.slice(0, text.lastIndexOf(']') > 0 && style !== 'yaml' ? 20 : text.length - 1).slice(0, 20)), 'the text before is kept');
        if (style.includes('json')) assert.doesNotThrow(() => JSON.parse(out), `${e.file} (${style}, ${what}): still JSON`);
        assert.equal(removeStep(out, after.length - 1), text, `${e.file} (${style}, ${what}): removing the step gives the text back`);
      }
    }
  }
});

test('appendStep writes a block step in the list\'s own indentation, after the last one', () => {
  const text = 'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nspec:\n  steps:\n  - name: a # mine\n    try:\n    - sleep: {duration: 1s}\n# the end\n';
  const out = appendStep(text, 'b', ops.sleep('2s'));
  assert.equal(out, 'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nspec:\n  steps:\n  - name: a # mine\n    try:\n    - sleep: {duration: 1s}\n  - name: b\n    try:\n    - sleep:\n        duration: 2s\n# the end\n');
});

test('appendStep writes a JSON step as JSON, in the document\'s indentation', () => {
  const text = '{\n  "apiVersion": "chainsaw.kyverno.io/v1alpha1",\n  "kind": "Test",\n  "spec": {\n    "steps": [\n      {\n        "name": "a",\n        "try": [{"sleep": {"duration": "1s"}}]\n      }\n    ]\n  }\n}\n';
  const out = appendStep(text, 'b', ops.sleep('2s'));
  assert.equal(out, '{\n  "apiVersion": "chainsaw.kyverno.io/v1alpha1",\n  "kind": "Test",\n  "spec": {\n    "steps": [\n      {\n        "name": "a",\n        "try": [{"sleep": {"duration": "1s"}}]\n      },\n      {\n        "name": "b",\n        "try": [\n          {\n            "sleep": {\n              "duration": "2s"\n            }\n          }\n        ]\n      }\n    ]\n  }\n}\n');
});

test('appendStep adds to a one-line flow list on its line', () => {
  const out = appendStep('spec:\n  steps: [{name: a, try: [{sleep: {duration: 1s}}]}] # c\n', 'b', ops.sleep('2s'));
  assert.equal(out, 'spec:\n  steps: [{name: a, try: [{sleep: {duration: 1s}}]}, { name: b, try: [ { sleep: { duration: 2s } } ] }] # c\n');
});

test('appendStep fills an empty or missing list of steps', () => {
  assert.deepEqual(stepsOf(appendStep('spec:\n  steps: []\n', 'b', ops.sleep('2s'))), [{ name: 'b', try: [{ sleep: { duration: '2s' } }] }]);
  assert.deepEqual(stepsOf(appendStep('{"spec": {"steps": []}}', 'b', ops.sleep('2s'))), [{ name: 'b', try: [{ sleep: { duration: '2s' } }] }]);
  assert.deepEqual(stepsOf(appendStep('spec:\n  description: x\n', 'b', ops.sleep('2s'))), [{ name: 'b', try: [{ sleep: { duration: '2s' } }] }]);
});

test('appendStep refuses to replace what is not a list of steps', () => {
  assert.throws(() => appendStep('spec:\n  steps: everything I wrote\n', 'b', ops.sleep('2s')), /not a list of steps/);
  assert.throws(() => appendStep('spec: [\n', 'b', ops.sleep('2s')));
});

test('removeStep removes one step of a block or a flow list, and never the last one', () => {
  const block = 'spec:\n  steps:\n  - name: a\n  - name: b\n  - name: c\n';
  assert.equal(removeStep(block, 1), 'spec:\n  steps:\n  - name: a\n  - name: c\n');
  assert.equal(removeStep('spec: {steps: [{name: a}, {name: b}]}', 0), 'spec: {steps: [{name: b}]}');
  assert.equal(removeStep('spec: {steps: [{name: a}, {name: b}]}', 1), 'spec: {steps: [{name: a}]}');
  assert.throws(() => removeStep('spec: {steps: [{name: a}]}', 0), /at least one step/);
  assert.throws(() => removeStep(block, 3), /no such step/);
});

test('stepNames names the steps of any style, step-N for an unnamed one', () => {
  assert.deepEqual(stepNames('spec:\n  steps:\n  - name: a\n  - try: []\n'), ['a', 'step-2']);
  assert.deepEqual(stepNames('{"spec": {"steps": [{"name": "a"}, {"name": "b"}]}}'), ['a', 'b']);
  assert.deepEqual(stepNames('spec: [\n'), []);
});

test('setGenerateFields sets the settings of both families, in place, in any style', () => {
  for (const e of examples) {
    for (const [style, to] of Object.entries(styles)) {
      const text = to(e.text);
      for (const value of [true, false]) {
        const out = setGenerateFields(text, { synchronize: value, orphanDownstreamOnPolicyDelete: !value });
        const policies = YAML.parse(out).spec.steps.flatMap((s) => s.try || []).map((op) => op.apply?.resource || op.create?.resource)
          .filter((r) => r && /kyverno\.io\//.test(r.apiVersion) && /Policy$/.test(r.kind));
        assert.ok(policies.length, `${e.file} (${style}) writes a policy`);
        for (const p of policies) {
          if (/^policies\./.test(p.apiVersion)) {
            assert.equal(p.spec.evaluation?.synchronize?.enabled, value, `${e.file} (${style}): ${p.metadata.name} synchronize`);
            assert.equal(p.spec.evaluation?.orphanDownstreamOnPolicyDelete?.enabled, !value, `${e.file} (${style}): ${p.metadata.name} orphan`);
          } else {
            for (const r of p.spec.rules.filter((x) => x.generate)) {
              assert.equal(r.generate.synchronize, value, `${e.file} (${style}): ${r.name} synchronize`);
              assert.equal(r.generate.orphanDownstreamOnPolicyDelete, !value, `${e.file} (${style}): ${r.name} orphan`);
            }
          }
        }
        if (style.includes('json')) assert.doesNotThrow(() => JSON.parse(out), `${e.file} (${style}): still JSON`);
        assert.deepEqual(stepsOf(out).map((s) => s.name), stepsOf(text).map((s) => s.name));
      }
    }
  }
});

test('setGenerateFields changes only the values\' characters in a block scenario', () => {
  const text = 'spec:\n  steps:\n  - try:\n    - apply:\n        resource:\n          apiVersion: kyverno.io/v1\n          kind: ClusterPolicy\n          spec:\n            rules:\n            - name: r # the rule\n              generate:\n                kind: X\n                synchronize: true\n';
  assert.equal(setGenerateFields(text, { synchronize: false, orphanDownstreamOnPolicyDelete: true }),
    text.replace('synchronize: true', 'synchronize: false').replace('                kind: X', '                orphanDownstreamOnPolicyDelete: true\n                kind: X'));
});

test('sourceResource is the last full write of an object, with its comments', () => {
  const text = 'spec:\n  steps:\n  - try:\n    - apply:\n        resource:\n          kind: Namespace\n          metadata: {name: a, labels: {v: "1"}}\n    - update:\n        resource:\n          kind: Namespace # again\n          metadata: {name: a, labels: {v: "2"}}\n';
  const node = sourceResource(text, { kind: 'Namespace', name: 'a' });
  assert.equal(node.getIn(['metadata', 'labels', 'v']), '2');
  assert.match(YAML.stringify(node), /# again/);
  assert.equal(sourceResource(text, { kind: 'Namespace', name: 'b' }), null);
  assert.equal(sourceResource('spec: [', { kind: 'Namespace', name: 'a' }), null);
});

test('manifest drops what the API server sets', () => {
  const m = manifest({
    apiVersion: 'v1', kind: 'Namespace', status: { phase: 'Active' },
    metadata: { uid: 'u', resourceVersion: '3', name: 'a', labels: { 'kubernetes.io/metadata.name': 'a' } },
  });
  assert.deepEqual(m, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
});

test('fromYAML reads one object and says what is missing', () => {
  assert.deepEqual(fromYAML('{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}}').metadata, { name: 'a' });
  assert.throws(() => fromYAML('- a\n'), /one object/);
  assert.throws(() => fromYAML('kind: Namespace\n'), /apiVersion, kind and metadata.name/);
});

test('testName is metadata.name when it makes a file name', () => {
  assert.equal(testName('metadata:\n  name: my-test\n'), 'my-test');
  assert.equal(testName('metadata:\n  name: ../x\n'), 'scenario');
  assert.equal(testName('{'), 'scenario');
});
