// Bundles the playground into dist/: node build.mjs (the Makefile runs it
// after building dist/genplay.wasm and copying dist/wasm_exec.js).
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, renameSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { mkdirSync } from 'node:fs';

const dist = 'dist';
const hash = (file) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);

if (!existsSync(join(dist, 'genplay.wasm')) || !existsSync(join(dist, 'wasm_exec.js'))) {
  console.error('build.mjs: dist/genplay.wasm and dist/wasm_exec.js are missing; run make site');
  process.exit(1);
}
// Content-hashed names under assets/, so those can be cached for ever.
const assets = join(dist, 'assets');
rmSync(assets, { recursive: true, force: true });
mkdirSync(assets);
const wasmName = `genplay-${hash(join(dist, 'genplay.wasm'))}.wasm`;
renameSync(join(dist, 'genplay.wasm'), join(assets, wasmName));

const result = await esbuild.build({
  entryPoints: { app: 'src/app.js' },
  bundle: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: 'linked',
  outdir: assets,
  entryNames: '[name]-[hash]',
  loader: { '.yaml': 'text' },
  define: { __GENPLAY_WASM__: JSON.stringify(wasmName) },
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const js = outputs.find((f) => f.endsWith('.js'));
const css = outputs.find((f) => f.endsWith('.css'));
const html = readFileSync('index.html', 'utf8')
  .replace('src="src/app.js"', `src="assets/${js}"`)
  .replace('href="src/style.css"', `href="assets/${css}"`);
writeFileSync(join(dist, 'index.html'), html);
copyFileSync('favicon.svg', join(dist, 'favicon.svg'));
console.log(`site: ${dist}/index.html, assets/${js}, assets/${css}, assets/${wasmName}`);
