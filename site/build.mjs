// Bundles the playground into dist/: node build.mjs (the Makefile runs it
// after building build/genplay.wasm, build/genplay-cel.wasm and copying
// build/wasm_exec.js). It updates dist/ in place: a file whose content did
// not change is neither copied nor compressed again, and what the build no
// longer produces is removed, so a rebuild after a small change takes
// seconds.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, readFileSync, readdirSync, statSync, writeFileSync, existsSync, rmSync, mkdirSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { basename, join } from 'node:path';

const dist = 'dist';
const build = 'build';
const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const hash = (file) => sha256(readFileSync(file)).slice(0, 12);

if (!['genplay.wasm', 'genplay-cel.wasm', 'genplay-tools.wasm', 'wasm_exec.js'].every((f) => existsSync(join(build, f)))) {
  console.error('build.mjs: build/genplay.wasm, build/genplay-cel.wasm, build/genplay-tools.wasm and build/wasm_exec.js are missing; run make site');
  process.exit(1);
}
// Content-hashed names under assets/, so those can be cached for ever.
const assets = join(dist, 'assets');
mkdirSync(assets, { recursive: true });
// copyOnce copies a build output to its content-hashed name, unless it is there.
const copyOnce = (from, name) => {
  if (!existsSync(join(assets, name))) copyFileSync(from, join(assets, name));
  return name;
};
const wasmName = copyOnce(join(build, 'genplay.wasm'), `genplay-${hash(join(build, 'genplay.wasm'))}.wasm`);
// The full build (with the CEL family and the shell), fetched only for a
// scenario that needs it, and the tools build (the full build and the
// authoring tools), fetched only when a tool is called (genplay.js;
// wasm/doc.go).
const celWasmName = copyOnce(join(build, 'genplay-cel.wasm'), `genplay-cel-${hash(join(build, 'genplay-cel.wasm'))}.wasm`);
const toolsWasmName = copyOnce(join(build, 'genplay-tools.wasm'), `genplay-tools-${hash(join(build, 'genplay-tools.wasm'))}.wasm`);
if (!existsSync(join(dist, 'wasm_exec.js')) || !readFileSync(join(dist, 'wasm_exec.js')).equals(readFileSync(join(build, 'wasm_exec.js')))) {
  copyFileSync(join(build, 'wasm_exec.js'), join(dist, 'wasm_exec.js'));
}

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
  define: { __GENPLAY_WASM__: JSON.stringify(wasmName), __GENPLAY_WASM_CEL__: JSON.stringify(celWasmName), __GENPLAY_WASM_TOOLS__: JSON.stringify(toolsWasmName), __GENPLAY_WORKER__: JSON.stringify(workerName) },
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
  define: { __GENPLAY_WASM__: JSON.stringify(wasmName), __GENPLAY_WASM_CEL__: JSON.stringify(celWasmName), __GENPLAY_WASM_TOOLS__: JSON.stringify(toolsWasmName), __GENPLAY_WORKER__: JSON.stringify(workerName) },
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
for (const name of readdirSync(join(dist, 'docs'))) {
  if (!existsSync(join('docs', name.replace(/\.(br|gz)$/, '')))) rmSync(join(dist, 'docs', name), { recursive: true });
}

// What assets/ holds now; anything else there is an earlier build's.
const current = new Set([wasmName, celWasmName, toolsWasmName, ...[worker, result, embed].flatMap((r) => Object.keys(r.metafile.outputs).map((p) => basename(p)))]);
for (const name of readdirSync(assets)) {
  if (!current.has(name.replace(/\.(br|gz)$/, ''))) rmSync(join(assets, name));
}

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
// Netlify does; brotli at its best quality, since it is done once per
// content: a manifest keeps the hash each copy was made from.
const compressible = /\.(wasm|js|css|html|svg|map)$/;
const manifestFile = join(build, 'precompressed.json');
const before = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : {};
const manifest = {};
function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (compressible.test(name)) yield p;
  }
}
let rawBytes = 0;
let brBytes = 0;
let compressed = 0;
for (const file of [...files(dist)]) {
  const data = readFileSync(file);
  const sum = sha256(data);
  manifest[file] = sum;
  rawBytes += data.length;
  if (before[file] === sum && existsSync(`${file}.br`) && existsSync(`${file}.gz`)) {
    brBytes += statSync(`${file}.br`).size;
    continue;
  }
  const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  brBytes += br.length;
  compressed++;
}
writeFileSync(manifestFile, JSON.stringify(manifest, null, 1));
console.log(`site: ${dist}/index.html, assets/${js}, assets/${css}, assets/${wasmName}, assets/${celWasmName}, assets/${toolsWasmName}, assets/${workerName}, embed.js -> assets/${embedJS}, docs/; precompressed ${(rawBytes / 1e6).toFixed(2)} MB to ${(brBytes / 1e6).toFixed(2)} MB brotli (and gzip), ${compressed} file(s) compressed anew`);
