# The oracle stack's versions (sourced by the scripts in oracle/).
# Kyverno v1.19.0 and v1.19.1 use k8s.io/* v0.36.3 and etcd's client v3.6.8
# (their go.mod); Kubernetes v1.36.3 serves both.
K8S_VERSION=${K8S_VERSION:-v1.36.3}
K8S_MAJOR=${K8S_MAJOR:-1}
K8S_MINOR=${K8S_MINOR:-36}
ETCD_VERSION=${ETCD_VERSION:-v3.6.8}
# Kyverno's CI pins chainsaw v0.2.15-beta.3, which the module proxy does not serve.
CHAINSAW_VERSION=${CHAINSAW_VERSION:-v0.2.14}
