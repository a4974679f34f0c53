// Reports the three wasm builds' sizes raw, gzip -9 and brotli (max
// quality) and fails when one is over its brotli budget: node size.mjs DIST
//   core   assets/genplay-HASH.wasm        no CEL, no shell, loaded first  1.5 MB
//   full   assets/genplay-cel-HASH.wasm    the CEL family and the shell    3.5 MB
//   tools  assets/genplay-tools-HASH.wasm  the full build and the tools    3.7 MB
// The full build is fetched for a scenario the core one cannot run, the
// tools build when the page calls an authoring tool (site/src/genplay.js).
// Measured 2026-12-02 (one make site): core 1,406,048, full 3,367,084,
// tools 3,539,106 bytes brotli, after the shell left the core build
// (1,536,428 -> 1,406,048) and the authoring tools the full build
// (3,533,833 -> 3,367,084) into the tools build. brotli moves by up to
// ~9 KB with the embedded version string alone (the commit hash), so keep
// a margin.
// The compressed sizes are those of the FILE.br and FILE.gz copies
// build.mjs wrote, which are what the server sends; each is checked to
// decompress to the wasm beside it.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';

const builds = [
  { name: 'core', pattern: /^genplay-[0-9a-f]+\.wasm$/, budget: 1.5e6 },
  { name: 'full', pattern: /^genplay-cel-[0-9a-f]+\.wasm$/, budget: 3.5e6 },
  { name: 'tools', pattern: /^genplay-tools-[0-9a-f]+\.wasm$/, budget: 3.7e6 },
];
const dist = join(process.argv[2] || 'dist', 'assets');
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
let failed = false;
for (const b of builds) {
  const file = readdirSync(dist).find((f) => b.pattern.test(f));
  if (!file) {
    console.error(`size: no ${b.name} build (${b.pattern}) in ${dist}; run make site`);
    failed = true;
    continue;
  }
  const raw = readFileSync(join(dist, file));
  const copies = {};
  for (const [ext, decompress] of [['br', brotliDecompressSync], ['gz', gunzipSync]]) {
    const path = join(dist, `${file}.${ext}`);
    if (!existsSync(path)) {
      console.error(`size: ${path} is missing; run make site`);
      failed = true;
      continue;
    }
    const data = readFileSync(path);
    if (!decompress(data).equals(raw)) {
      console.error(`size: ${path} is not ${file} compressed (stale); run make site`);
      failed = true;
      continue;
    }
    copies[ext] = data.length;
  }
  if (copies.br === undefined || copies.gz === undefined) continue;
  const br = copies.br;
  console.log(`wasm ${b.name} ${file}: raw ${mb(raw.length)}, gzip ${mb(copies.gz)}, brotli ${mb(br)} = ${br.toLocaleString('en-US')} bytes (budget ${mb(b.budget)}, ${(b.budget - br).toLocaleString('en-US')} left)`);
  if (br > b.budget) {
    console.error(`size: the ${b.name} build is ${(br - b.budget).toLocaleString('en-US')} bytes over its brotli budget of ${b.budget.toLocaleString('en-US')}`);
    failed = true;
  }
}
if (failed) process.exit(1);
