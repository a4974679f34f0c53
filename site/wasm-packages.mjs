// Lists how many bytes of wasm code each Go package contributes, from the
// function names of an unstripped build: node wasm-packages.mjs FILE.wasm
// (`make size-by-package` builds one and runs this).
import { readFileSync } from 'node:fs';

const b = readFileSync(process.argv[2]);
let p = 8; // past the magic number and version
const u32 = () => { let r = 0, s = 0, x; do { x = b[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80); return r; };
const str = () => { const l = u32(); const s = b.subarray(p, p + l).toString(); p += l; return s; };
const limits = () => { const f = b[p++]; u32(); if (f & 1) u32(); };

let imported = 0; // function imports come first in the index space
const bodies = [];
const names = new Map();
let data = 0;
while (p < b.length) {
  const id = b[p++];
  const size = u32();
  const end = p + size;
  if (id === 2) {
    for (let n = u32(); n > 0; n--) {
      str(); str();
      const kind = b[p++];
      if (kind === 0) { u32(); imported++; } else if (kind === 1) { p++; limits(); } else if (kind === 2) limits(); else p += 2;
    }
  } else if (id === 10) {
    for (let n = u32(); n > 0; n--) { const s = u32(); bodies.push(s); p += s; }
  } else if (id === 11) {
    data += size;
  } else if (id === 0 && str() === 'name') {
    while (p < end) {
      const sub = b[p++];
      const subEnd = u32() + p;
      if (sub === 1) for (let n = u32(); n > 0; n--) { const idx = u32(); names.set(idx, str()); }
      p = subEnd;
    }
  }
  p = end;
}
if (!names.size) {
  console.error('wasm-packages: no name section; build without -ldflags=-s');
  process.exit(1);
}
// Names look like "github.com_genplay_genplay_engine.Run" or "runtime.mallocgc".
const pkgOf = (n) => {
  const dot = n.indexOf('.', /^[a-z]+\.[a-z]/.test(n) ? n.indexOf('_') : 0);
  return dot > 0 ? n.slice(0, dot) : n;
};
const byPkg = new Map();
bodies.forEach((size, i) => {
  const pkg = pkgOf(names.get(i + imported) || '?');
  byPkg.set(pkg, (byPkg.get(pkg) || 0) + size);
});
const total = bodies.reduce((a, c) => a + c, 0);
console.log(`code ${total} bytes, data ${data} bytes; code by package:`);
for (const [pkg, size] of [...byPkg].sort((x, y) => y[1] - x[1]).slice(0, Number(process.argv[3] || 30))) {
  console.log(`${String(size).padStart(9)}  ${pkg}`);
}
