// Reports both wasm builds' sizes raw, gzip -9 and brotli (max quality) and
// warns when either is over its brotli budget and fails above its ceiling: node size.mjs DIST
//   core  assets/genplay-HASH.wasm      no CEL, loaded first       1.5 MB
//   full  assets/genplay-cel-HASH.wasm  with the CEL family        3.5 MB
// The budgets are the targets. Since 2026-12-02 both builds are over them
// (core 1,531,698 and full 3,534,037 bytes brotli at 1fa544d: timeline v2,
// Kyverno releases, certificates and the embed's runner, each 5-25 KB); the
// gate is a ceiling just above that overrun, so that any further growth
// fails while the overrun is open work (the report prints it as a warning).
// The ceilings leave ~15 KB over the measured sizes because brotli moves by
// up to ~9 KB with the embedded version string alone (the commit hash).
// Lower each ceiling as code leaves; remove it when the build is back under
// its budget.
// The compressed sizes are those of the FILE.br and FILE.gz copies
// build.mjs wrote, which are what the server sends; each is checked to
// decompress to the wasm beside it.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';

const builds = [
  { name: 'core', pattern: /^genplay-[0-9a-f]+\.wasm$/, budget: 1.5e6, ceiling: 1.545e6 },
  { name: 'full', pattern: /^genplay-cel-[0-9a-f]+\.wasm$/, budget: 3.5e6, ceiling: 3.55e6 },
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
  if (br > b.ceiling) {
    console.error(`size: the ${b.name} build is over its ceiling of ${b.ceiling.toLocaleString('en-US')} bytes brotli (budget ${b.budget.toLocaleString('en-US')})`);
    failed = true;
  } else if (br > b.budget) {
    console.warn(`size: warning: the ${b.name} build is ${(br - b.budget).toLocaleString('en-US')} bytes over its brotli budget (the known overrun, open work; ceiling ${b.ceiling.toLocaleString('en-US')})`);
  }
}
if (failed) process.exit(1);
