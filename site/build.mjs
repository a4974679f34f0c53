// Bundles the playground into dist/: node build.mjs (the Makefile runs it
// after building dist/genplay.wasm and copying dist/wasm_exec.js).
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync, existsSync, rmSync, mkdirSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { basename, join } from 'node:path';

const dist = 'dist';
const hash = (file) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);

if (!['genplay.wasm', 'genplay-cel.wasm', 'wasm_exec.js'].every((f) => existsSync(join(dist, f)))) {
  console.error('build.mjs: dist/genplay.wasm, dist/genplay-cel.wasm and dist/wasm_exec.js are missing; run make site');
  process.exit(1);
}
// Content-hashed names under assets/, so those can be cached for ever.
const assets = join(dist, 'assets');
rmSync(assets, { recursive: true, force: true });
mkdirSync(assets);
const wasmName = `genplay-${hash(join(dist, 'genplay.wasm'))}.wasm`;
renameSync(join(dist, 'genplay.wasm'), join(assets, wasmName));
// The full build (with the CEL family), fetched only for a scenario that
// needs it (genplay.js; wasm/doc.go).
const celWasmName = `genplay-cel-${hash(join(dist, 'genplay-cel.wasm'))}.wasm`;
renameSync(join(dist, 'genplay-cel.wasm'), join(assets, celWasmName));

// The engine's Web Worker (a classic script: importScripts loads
// wasm_exec.js in it); the loaders in app.js and embed.js name it.
const worker = await esbuild.build({
  entryPoints: { worker: 'src/worker.js' },
  bundle: true,
  format: 'iife',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: 'linked',
  outdir: assets,
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});
const workerName = Object.keys(worker.metafile.outputs).map((p) => basename(p)).find((f) => f.endsWith('.js'));

// The examples' gallery: `import examples from 'genplay:examples'` is
// examples/examples.json in gallery order, each entry with its file's text
// ({file, title, text}); adding an example edits examples.json alone.
const examplesPlugin = {
  name: 'genplay-examples',
  setup(build) {
    build.onResolve({ filter: /^genplay:examples$/ }, () => ({ path: 'examples', namespace: 'genplay-examples' }));
    build.onLoad({ filter: /.*/, namespace: 'genplay-examples' }, () => {
      const index = JSON.parse(readFileSync('examples/examples.json', 'utf8'));
      const imports = index.map((e, i) => `import t${i} from ${JSON.stringify(`./${e.file}`)};`).join('\n');
      const list = index.map((e, i) => `{ file: ${JSON.stringify(e.file)}, title: ${JSON.stringify(e.title)}, text: t${i} }`).join(',\n  ');
      return {
        contents: `${imports}\nexport default [\n  ${list},\n];\n`,
        resolveDir: join(process.cwd(), 'examples'),
        watchFiles: ['examples/examples.json'],
        loader: 'js',
      };
    });
  },
};

const result = await esbuild.build({
  entryPoints: { app: 'src/app.js' },
  plugins: [examplesPlugin],
  bundle: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: 'linked',
  outdir: assets,
  entryNames: '[name]-[hash]',
  loader: { '.yaml': 'text' },
  define: { __GENPLAY_WASM__: JSON.stringify(wasmName), __GENPLAY_WASM_CEL__: JSON.stringify(celWasmName), __GENPLAY_WORKER__: JSON.stringify(workerName) },
  metafile: true,
  logLevel: 'warning',
});

// The documentation embed: a classic script (an IIFE), so pages on other
// origins can include it without CORS for modules; its CSS is text it puts
// into each player's shadow root.
const embed = await esbuild.build({
  entryPoints: { embed: 'src/embed.js' },
  bundle: true,
  format: 'iife',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: 'linked',
  outdir: assets,
  entryNames: '[name]-[hash]',
  loader: { '.css': 'text' },
  define: { __GENPLAY_WASM__: JSON.stringify(wasmName), __GENPLAY_WASM_CEL__: JSON.stringify(celWasmName), __GENPLAY_WORKER__: JSON.stringify(workerName) },
  metafile: true,
  logLevel: 'warning',
});
const embedJS = Object.keys(embed.metafile.outputs).map((p) => basename(p)).find((f) => f.endsWith('.js'));
// The stable URL pages include: a few bytes, served without a long cache,
// that load the content-hashed bundle next to it.
writeFileSync(join(dist, 'embed.js'), `/* genplay embed loader: <script src=".../embed.js" defer>; see README.md */
(() => {
  const s = document.createElement('script');
  s.src = new URL(${JSON.stringify(`assets/${embedJS}`)}, document.currentScript.src).href;
  document.head.append(s);
})();
`);

// The sample documentation pages.
cpSync('docs', join(dist, 'docs'), { recursive: true });

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const js = outputs.find((f) => f.endsWith('.js'));
const css = outputs.find((f) => f.endsWith('.css'));
const html = readFileSync('index.html', 'utf8')
  .replace('src="src/app.js"', `src="assets/${js}"`)
  .replace('href="src/style.css"', `href="assets/${css}"`);
writeFileSync(join(dist, 'index.html'), html);
copyFileSync('favicon.svg', join(dist, 'favicon.svg'));

// Precompressed copies (FILE.br, FILE.gz) of what a browser downloads, for
// genplay serve (site.Handler), which picks one by Accept-Encoding as
// Netlify does; brotli at its best quality, since it is done once per build.
const compressible = /\.(wasm|js|css|html|svg|map)$/;
function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (compressible.test(name)) yield p;
  }
}
let rawBytes = 0;
let brBytes = 0;
for (const file of [...files(dist)]) {
  const data = readFileSync(file);
  const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  rawBytes += data.length;
  brBytes += br.length;
}
console.log(`site: ${dist}/index.html, assets/${js}, assets/${css}, assets/${wasmName}, assets/${celWasmName}, assets/${workerName}, embed.js -> assets/${embedJS}, docs/; precompressed ${(rawBytes / 1e6).toFixed(2)} MB to ${(brBytes / 1e6).toFixed(2)} MB brotli (and gzip)`);
