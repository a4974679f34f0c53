package cluster

import (
	"strings"

	"github.com/genplay/genplay/engine/resource"
)

// NameRule says how the API server validates metadata.name of a kind.
type NameRule int

// The name rules the API server applies. The zero value is the most common.
const (
	// NameSubdomain: a DNS-1123 subdomain, at most 253 characters.
	NameSubdomain NameRule = iota
	// NameLabel: a DNS-1123 label, at most 63 characters (Namespace).
	NameLabel
	// NameDNS1035Label: a DNS-1035 label, starting with a letter (Service).
	NameDNS1035Label
	// NamePathSegment: anything but "." and ".." without "/" or "%" (RBAC kinds).
	NamePathSegment
)

// KindInfo describes one served kind: its group, version, plural resource
// name and scope.
type KindInfo struct {
	Group    string
	Version  string
	Kind     string
	Resource string // plural, lowercase: "configmaps"
	// Namespaced is true for kinds whose objects live in a namespace.
	Namespaced bool
	// Names is how metadata.name is validated.
	Names NameRule
}

// APIVersion joins Group and Version.
func (k KindInfo) APIVersion() string {
	return resource.GVK{Group: k.Group, Version: k.Version, Kind: k.Kind}.APIVersion()
}

// GVK returns the group, version and kind.
func (k KindInfo) GVK() resource.GVK {
	return resource.GVK{Group: k.Group, Version: k.Version, Kind: k.Kind}
}

// plural guesses the resource name of a kind the way kubectl's RESTMapper
// does for unknown kinds: lowercase, then an English plural.
func plural(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case k == "":
		return ""
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"), strings.HasSuffix(k, "z"),
		strings.HasSuffix(k, "ch"), strings.HasSuffix(k, "sh"):
		return k + "es"
	case strings.HasSuffix(k, "y") && len(k) > 1 && !strings.ContainsRune("aeiou", rune(k[len(k)-2])):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}

// builtinKinds is the table NewStore registers, in order. The order matters:
// a lookup by kind alone finds the first entry with that kind.
func builtinKinds() []KindInfo {
	var out []KindInfo
	add := func(apiVersion string, namespaced bool, kinds ...string) {
		g, v := resource.SplitAPIVersion(apiVersion)
		for _, k := range kinds {
			out = append(out, KindInfo{Group: g, Version: v, Kind: k, Resource: plural(k), Namespaced: namespaced})
		}
	}
	const ns, cluster = true, false

	out = append(out,
		KindInfo{Version: "v1", Kind: "Namespace", Resource: "namespaces", Names: NameLabel},
		KindInfo{Version: "v1", Kind: "Service", Resource: "services", Namespaced: true, Names: NameDNS1035Label},
		KindInfo{Version: "v1", Kind: "Endpoints", Resource: "endpoints", Namespaced: true},
	)
	add("v1", ns, "ConfigMap", "Secret", "ServiceAccount", "Pod", "PodTemplate", "ReplicationController",
		"LimitRange", "ResourceQuota", "PersistentVolumeClaim", "Event")
	add("v1", cluster, "Node", "PersistentVolume")

	add("apps/v1", ns, "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ControllerRevision")
	add("batch/v1", ns, "Job", "CronJob")
	add("autoscaling/v2", ns, "HorizontalPodAutoscaler")
	add("autoscaling/v1", ns, "HorizontalPodAutoscaler")
	add("networking.k8s.io/v1", ns, "NetworkPolicy", "Ingress")
	add("networking.k8s.io/v1", cluster, "IngressClass")
	add("discovery.k8s.io/v1", ns, "EndpointSlice")
	add("events.k8s.io/v1", ns, "Event")
	add("coordination.k8s.io/v1", ns, "Lease")
	add("policy/v1", ns, "PodDisruptionBudget")
	for _, k := range []KindInfo{
		{Kind: "Role", Namespaced: true}, {Kind: "RoleBinding", Namespaced: true},
		{Kind: "ClusterRole"}, {Kind: "ClusterRoleBinding"},
	} {
		k.Group, k.Version, k.Resource, k.Names = "rbac.authorization.k8s.io", "v1", plural(k.Kind), NamePathSegment
		out = append(out, k)
	}
	add("storage.k8s.io/v1", cluster, "StorageClass", "CSIDriver", "CSINode", "VolumeAttachment")
	add("scheduling.k8s.io/v1", cluster, "PriorityClass")
	add("node.k8s.io/v1", cluster, "RuntimeClass")
	add("certificates.k8s.io/v1", cluster, "CertificateSigningRequest")
	add("apiextensions.k8s.io/v1", cluster, "CustomResourceDefinition")
	add("apiregistration.k8s.io/v1", cluster, "APIService")
	add("admissionregistration.k8s.io/v1", cluster, "ValidatingWebhookConfiguration",
		"MutatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding")

	// Kyverno.
	add("kyverno.io/v1", cluster, "ClusterPolicy")
	add("kyverno.io/v1", ns, "Policy")
	add("kyverno.io/v2beta1", cluster, "ClusterPolicy", "ClusterCleanupPolicy")
	add("kyverno.io/v2beta1", ns, "Policy", "PolicyException", "CleanupPolicy")
	add("kyverno.io/v2", ns, "UpdateRequest", "PolicyException", "CleanupPolicy")
	add("kyverno.io/v2", cluster, "ClusterCleanupPolicy")
	add("kyverno.io/v1beta1", ns, "UpdateRequest")
	add("kyverno.io/v2alpha1", cluster, "GlobalContextEntry")
	for _, v := range []string{"v1alpha1", "v1beta1"} {
		add("policies.kyverno.io/"+v, cluster, "ValidatingPolicy", "ImageValidatingPolicy",
			"MutatingPolicy", "GeneratingPolicy", "DeletingPolicy")
		add("policies.kyverno.io/"+v, ns, "PolicyException")
	}
	add("wgpolicyk8s.io/v1alpha2", ns, "PolicyReport")
	add("wgpolicyk8s.io/v1alpha2", cluster, "ClusterPolicyReport")
	add("reports.kyverno.io/v1", ns, "EphemeralReport")
	add("reports.kyverno.io/v1", cluster, "ClusterEphemeralReport")
	return out
}
