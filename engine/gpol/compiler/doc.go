// Package compiler is Kyverno's CEL environment for GeneratingPolicy and
// NamespacedGeneratingPolicy (GENERATING-POLICY.md §2): it compiles a
// *gpol.Policy once per policy version into programs and evaluates them
// against an Input and a Host. It is the only package of the engine that
// imports cel-go.
//
// What mirrors what (K: kyverno v1.19.0, S: kyverno/sdk, cel-go v0.30.0):
//
//   - request.go: the AdmissionRequest type (k8s.io/apiserver/pkg/
//     admission/plugin/cel BuildRequestType, K:pkg/cel/compiler/request.go).
//   - budget.go, cost.go: the deterministic cost budget of an
//     evaluation: every call priced from its arguments before it runs, by
//     a rule per function of the environment (Kubernetes' cost model,
//     k8s.io/apiserver/pkg/cel/library/cost.go, with the worst case of the
//     implementation that runs).
//   - env.go: createBaseGpolEnv and DynamicResourceEnvOptionsWithCompat
//     (K:pkg/cel/policies/gpol/compiler/compiler.go,
//     K:pkg/cel/compiler/env.go): the cel-go options of §2.4 and the
//     variables of §2.1, the __orValueCompat__ macro.
//   - compile.go: Compile and CompileGeneration (K:pkg/cel/compiler/
//     compiler.go), the sections in Kyverno's order, stopping at the first
//     that fails (§1.4); ExpressionsUseHTTP (K:pkg/cel/compiler/http.go).
//   - eval.go: Policy.Evaluate and match (K:pkg/cel/policies/gpol/compiler/
//     {policy.go,eval.go}), variables lazy and memoised (lazy.MapValue).
//   - template.go: K:pkg/cel/policies/gpol/template/{template.go,scanner.go}
//     and Policy.applyTemplate (§2.5).
//   - exception.go: the matchConditions of a CEL PolicyException (§3.11).
//   - libs_host.go: S:extensions/cel/libs/{generator,resource,
//     globalcontext,http,imagedata}; the calls go to the Host.
//   - libs_image.go, libs_pure.go, random.go: S:extensions/cel/libs/{image,
//     hash,math,json,yaml,random,x509,time,transform,gzip}.
//   - libs_k8s.go: k8s.io/apiserver/pkg/cel/library (lists, regex, urls,
//     ip, cidr, quantity, semver, format), written by hand so that
//     apimachinery stays out of the build.
//
// Where genplay's environment knowingly differs from Kyverno's:
//
//   - http.*, globalContext.* and image.GetMetadata are answered by the
//     Host (genplay has no network); resource.* and generator.apply go to
//     the simulated cluster through the Host.
//   - random() draws from a generator seeded per evaluation (Options.Seed
//     or Host Seeder), time.now() is the logical clock (Options.Now or Host
//     Clock): the same input gives the same output.
//   - Every evaluation has a cost budget (Options.CostLimit, default
//     DefaultCostLimit), counted by budget.go rather than by cel-go's
//     actual-cost tracker, which charges a call after it returns and is
//     quadratic in comprehension iterations in v0.30: a call is priced
//     from its arguments before it runs (cost.go) and does not start when
//     it would exceed the budget or build a string or bytes value over
//     MaxStringBytes (Kubernetes' 3 MiB request limit); other nodes cost 1
//     plus the size of their result. lists.range is capped
//     at 100,000 elements; resource.List answers and generator.apply
//     inputs at MaxListSize. Kyverno sets no cost limit for generating
//     policies.
//   - request is declared as Kubernetes' AdmissionRequest type (request.go)
//     but namespaceObject is dyn, not the Namespace object type: a misspelt
//     field of namespaceObject is a runtime error here, a compile error in
//     Kyverno.
//   - Generated objects are converted to JSON-shaped values: bytes become
//     base64 strings and timestamps RFC 3339 strings, where Kyverno's
//     conversion to google.protobuf.Struct refuses them.
//   - ext.Protos is not enabled (no protobuf messages exist here).
//   - x.orValue(y) on a plain value of another type than y returns x
//     (Kyverno's compat overloads would refuse a mismatch at run time).
//   - transform.listObjToMap pairs keys[i][keyName] with
//     values[i][valueName]; random(pattern) bounds *, + and {n,} at 10
//     repetitions as goregen does by default.
package compiler
