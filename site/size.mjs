// Reports the wasm's size raw, gzip -9 and brotli (max quality) and fails
// when brotli exceeds the budget: node size.mjs DIST
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const BUDGET = 1.5 * 1000 * 1000; // bytes, brotli
const dist = join(process.argv[2] || 'dist', 'assets');
const file = readdirSync(dist).find((f) => /^genplay-[0-9a-f]+\.wasm$/.test(f));
if (!file) {
  console.error(`size: no genplay-*.wasm in ${dist}; run make site`);
  process.exit(1);
}
const raw = readFileSync(join(dist, file));
const gz = gzipSync(raw, { level: 9 }).length;
const br = brotliCompressSync(raw, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
}).length;
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
console.log(`wasm ${file}: raw ${mb(raw.length)}, gzip ${mb(gz)}, brotli ${mb(br)} (budget ${mb(BUDGET)})`);
if (br > BUDGET) {
  console.error('size: the wasm is over the brotli budget');
  process.exit(1);
}
