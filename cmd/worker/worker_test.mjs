// Runs the built Cloudflare Worker (build/worker.mjs, from build.sh) under
// Node and checks that it answers exactly as the native server does
// (`genplay serve`) and, for runs, exactly the bytes `genplay run -o json`
// prints. Run: cmd/worker/build.sh && node --test cmd/worker/
//
// Node cannot import what the Workers runtime provides, so two module hooks
// stand in for it: "cloudflare:sockets" (unused by the API) becomes a stub,
// and "./app.wasm" becomes a compiled WebAssembly.Module, as wrangler's
// CompiledWasm rule makes it on Cloudflare.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { register } from "node:module";
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../../", import.meta.url));
const workerURL = new URL("./build/worker.mjs", import.meta.url);

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === "cloudflare:sockets") {
    return { shortCircuit: true, url: "data:text/javascript,export function connect() { throw new Error('cloudflare:sockets is not available under Node'); }" };
  }
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url.startsWith("file:") && url.endsWith(".wasm")) {
    return { shortCircuit: true, format: "module",
      source: 'import { readFileSync } from "node:fs"; export default new WebAssembly.Module(readFileSync(new URL(' + JSON.stringify(url) + ')));' };
  }
  return next(url, context);
}`;
register("data:text/javascript," + encodeURIComponent(hooks));

const MAX_INPUT_BYTES = 2 << 20; // engine.MaxInputBytes

let worker; // the module's default export: { fetch, ... }
let tmp; // scratch directory: the native binary and an empty site
let native; // the `genplay serve` child process
let nativeBase; // http://127.0.0.1:PORT

const examples = readdirSync(join(root, "site/examples")).filter((f) => f.endsWith(".yaml")).sort();

test("every Go file of cmd/worker is built only for js/wasm", () => {
  for (const f of readdirSync(here).filter((f) => f.endsWith(".go"))) {
    const first = readFileSync(join(here, f), "utf8").split("\n")[0];
    assert.match(first, /^\/\/go:build js && wasm( && !?cel)?$/, f);
  }
});

// callWorker sends a request to the worker's exported fetch, as the Workers
// runtime does.
async function callWorker(path, init) {
  const ctx = { waitUntil() {}, passThroughOnException() {} };
  return worker.fetch(new Request("https://genplay.example.workers.dev" + path, init), {}, ctx);
}

const compared = ["content-type", "access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers", "allow", "cache-control", "retry-after"];

// answer reduces a Response to what both servers must agree on.
async function answer(res) {
  const headers = {};
  for (const h of compared) headers[h] = res.headers.get(h);
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString("utf8") };
}

// same sends one request to both servers and requires equal answers.
async function same(path, init = {}) {
  const fromWorker = await answer(await callWorker(path, init));
  const fromNative = await answer(await fetch(nativeBase + path, init));
  assert.deepEqual(fromWorker, fromNative, `${init.method ?? "GET"} ${path}`);
  return fromWorker;
}

const broken = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: broken
spec:
  steps:
  - try:
    - apply: {resource: [
`;

describe("the built worker answers as the native server does", () => {
  before(async () => {
    assert.ok(existsSync(workerURL), "cmd/worker/build/worker.mjs is missing: run cmd/worker/build.sh (make worker) first");
    worker = (await import(workerURL.href)).default;
    assert.equal(typeof worker.fetch, "function", "worker.mjs exports fetch");

    tmp = mkdtempSync(join(tmpdir(), "genplay-worker-test-"));
    execFileSync("go", ["build", "-o", join(tmp, "genplay"), "./cmd/genplay"], { cwd: root, stdio: "inherit" });
    const site = join(tmp, "site");
    mkdirSync(site);
    writeFileSync(join(site, "index.html"), "<!doctype html><title>test</title>\n");
    native = spawn(join(tmp, "genplay"), ["serve", "--addr", "127.0.0.1:0", "--dir", site], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    nativeBase = await new Promise((resolve, reject) => {
      let out = "";
      native.stdout.on("data", (chunk) => {
        out += chunk;
        const m = out.match(/http:\/\/([^/\s]+)\//);
        if (m) resolve("http://" + m[1]);
      });
      native.on("exit", (code) => reject(new Error(`genplay serve exited with ${code} before listening: ${out}`)));
    });
  });

  after(() => {
    native?.kill();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test("the health check answers as the native server does", async () => {
    const a = await same("/healthz");
    assert.equal(a.status, 200);
    assert.deepEqual(JSON.parse(a.body), { status: "ok", format: "genplay.timeline/v2" });
  });

  test("the gallery answers as the native server does", async () => {
    const a = await same("/api/v1/examples");
    assert.equal(a.status, 200);
    assert.deepEqual(JSON.parse(a.body).map((e) => e.name + ".yaml").sort(), examples);
  });

  // The default worker has no CEL family (README.md): a CEL example is
  // answered with the skip that says so; a worker built with
  // WORKER_TAGS=cel answers the bytes of genplay run -o json.
  const isCEL = (file) => readFileSync(join(root, "site/examples", file), "utf8").includes("policies.kyverno.io/");
  for (const file of examples.filter(isCEL)) {
    test(`running ${file} answers the CLI's bytes, or the skip of a worker without CEL`, async () => {
      const rel = "site/examples/" + file;
      const cli = execFileSync(join(tmp, "genplay"), ["run", "-o", "json", rel], { cwd: root }).toString("utf8");
      const res = await answer(await callWorker("/api/v1/run?file=" + encodeURIComponent(rel), {
        method: "POST",
        headers: { "content-type": "text/yaml" },
        body: readFileSync(join(root, rel)),
      }));
      assert.equal(res.status, 200);
      if (res.body !== cli) assert.match(JSON.parse(res.body).skipped ?? "", /no CEL engine/, "neither the CLI's bytes nor the no-CEL skip");
    });
  }
  for (const file of examples.filter((f) => !isCEL(f))) {
    test(`running ${file} answers the bytes of genplay run -o json`, async () => {
      const rel = "site/examples/" + file;
      const cli = execFileSync(join(tmp, "genplay"), ["run", "-o", "json", rel], { cwd: root }).toString("utf8");
      const a = await same("/api/v1/run?file=" + encodeURIComponent(rel), {
        method: "POST",
        headers: { "content-type": "text/yaml" },
        body: readFileSync(join(root, rel)),
      });
      assert.equal(a.status, 200);
      assert.equal(a.headers["content-type"], "application/json");
      assert.equal(a.body, cli);
      assert.equal(JSON.parse(a.body).passed, true);
    });
  }

  // compareVersions runs every release: the comparison is the bytes the CLI
  // prints for it (genplay.versions/v1), from both servers. The CLI exits 1
  // when a release's run fails its checks, still printing the comparison.
  const compareCLI = (rel) => {
    try {
      return execFileSync(join(tmp, "genplay"), ["run", "--compare-versions", "-o", "json", rel], { cwd: root }).toString("utf8");
    } catch (err) {
      assert.equal(err.status, 1, `genplay run --compare-versions ${rel}: ${err.stderr}`);
      return err.stdout.toString("utf8");
    }
  };
  for (const file of examples.filter((f) => !isCEL(f))) {
    test(`?compareVersions=true on ${file} answers the bytes of genplay run --compare-versions -o json`, async () => {
      const rel = "site/examples/" + file;
      const a = await same("/api/v1/run?compareVersions=true&file=" + encodeURIComponent(rel), {
        method: "POST",
        headers: { "content-type": "text/yaml" },
        body: readFileSync(join(root, rel)),
      });
      assert.equal(a.status, 200);
      assert.equal(a.body, compareCLI(rel));
      const c = JSON.parse(a.body);
      assert.equal(c.format, "genplay.versions/v1");
      assert.deepEqual(c.versions, ["v1.18.2", "v1.19.0", "v1.19.1"]);
    });
  }

  test("kyvernoVersion and compareVersions as JSON fields answer as the native server does", async () => {
    const scenario = readFileSync(join(root, "site/examples", examples.filter((f) => !isCEL(f))[0]), "utf8");
    for (const kyvernoVersion of ["v1.18.2", "v1.19.0"]) {
      const a = await same("/api/v1/run", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario, kyvernoVersion }) });
      assert.equal(a.status, 200);
      assert.equal(JSON.parse(a.body).kyverno, kyvernoVersion, "the answer names the release it simulated");
    }
    const c = await same("/api/v1/run", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario, compareVersions: true }) });
    assert.equal(c.status, 200);
    assert.equal(JSON.parse(c.body).format, "genplay.versions/v1");
  });

  test("a JSON request with an override answers as the native server does", async () => {
    const scenario = readFileSync(join(root, "site/examples", examples.filter((f) => !isCEL(f))[0]), "utf8");
    const a = await same("/api/v1/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ scenario, override: { synchronize: false, orphanDownstreamOnPolicyDelete: true } }),
    });
    assert.equal(a.status, 200);
  });

  test("a broken scenario answers 422 naming the line, as the native server does", async () => {
    const a = await same("/api/v1/run?file=broken.yaml", { method: "POST", body: broken });
    assert.equal(a.status, 422);
    const body = JSON.parse(a.body);
    assert.match(body.error, /^broken\.yaml:8(:\d+)?: /);
    assert.equal(body.diagnostics[0].line, 8);
  });

  test("malformed requests answer as the native server does", async () => {
    const cases = [
      ["/api/v1/run", { method: "POST", body: "" }, 400],
      ["/api/v1/run", { method: "POST", headers: { "content-type": "application/json" }, body: '{"scenario": 1}' }, 400],
      ["/api/v1/run?synchronize=maybe", { method: "POST", body: "x: 1" }, 400],
      ["/api/v1/run?compareVersions=true&kyvernoVersion=v1.19.0", { method: "POST", body: "x: 1" }, 400],
      ["/api/v1/run?compareVersions=true&format=v1", { method: "POST", body: "x: 1" }, 400],
      ["/api/v1/run", { method: "POST", headers: { "content-type": "image/png" }, body: "a=b" }, 415],
      // The scenario is over engine.MaxInputBytes, the JSON body under the
      // body limit: both servers read it all, then refuse it.
      ["/api/v1/run", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "#".repeat(MAX_INPUT_BYTES + 1) }) }, 413],
      ["/api/v1/run", { method: "GET" }, 405],
      ["/api/v1/nope", { method: "GET" }, 404],
    ];
    for (const [path, init, status] of cases) {
      const a = await same(path, init);
      assert.equal(a.status, status, `${init.method} ${path}`);
      assert.equal(typeof JSON.parse(a.body).error, "string");
      assert.equal(a.headers["access-control-allow-origin"], "*");
    }
  });

  test("a YAML body over engine.MaxInputBytes answers 413", async () => {
    // Only the worker: the native server answers before reading such a body
    // and closes the connection, which a client may see as a reset.
    const res = await callWorker("/api/v1/run", { method: "POST", body: "#".repeat(MAX_INPUT_BYTES + 1) });
    assert.equal(res.status, 413);
    assert.match((await res.json()).error, /larger than \d+ bytes/);
  });

  test("a CORS preflight answers as the native server does", async () => {
    const a = await same("/api/v1/run", {
      method: "OPTIONS",
      headers: { origin: "https://docs.example.com", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    assert.equal(a.status, 204);
    assert.equal(a.headers["access-control-allow-methods"], "POST, OPTIONS");
  });
});
