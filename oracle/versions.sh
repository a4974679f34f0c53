# The oracle stack's versions (sourced by the scripts in oracle/, read by
# the oracle command).
#
# Kubernetes is the release whose libraries the Kyverno release requires
# (its go.mod's k8s.io/client-go v0.N.M: Kubernetes v1.N.M): oracle/build.sh
# reads it from the module and writes it beside Kyverno's binaries
# (kyverno-<version>/kubernetes-version). Kyverno v1.19.0 and v1.19.1 use
# v0.36.3, v1.18.2 v0.35.4. K8S_VERSION in the environment overrides it.
#
# etcd: Kyverno's etcd client (v3.6.8 for all three); Kubernetes v1.35 and
# v1.36 both run on etcd 3.6.
ETCD_VERSION=${ETCD_VERSION:-v3.6.8}
# Kyverno's CI pins chainsaw v0.2.15-beta.3, which the module proxy does not serve.
CHAINSAW_VERSION=${CHAINSAW_VERSION:-v0.2.14}
