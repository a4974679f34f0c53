// Reads a request on standard input and answers with what the playground's
// readers (src/reader.js, src/diff.js) make of it, for reader_test.go:
// {results: [v2 result, ...], diffs: [{a, b, aName, bName}, ...]} ->
// {clusters: [[cluster after step -1, 0, 1, ...], ...], diffs: [string, ...]}
import { readerOf } from '../src/reader.js';
import { unifiedDiff } from '../src/diff.js';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const req = JSON.parse(input);
const clusters = req.results.map((r) => {
  const reader = readerOf(r);
  const out = [];
  for (let i = -1; i < reader.steps.length; i++) out.push(reader.cluster(i));
  return out;
});
const diffs = req.diffs.map((d) => unifiedDiff(d.aName, d.bName, d.a, d.b));
process.stdout.write(JSON.stringify({ clusters, diffs }));
