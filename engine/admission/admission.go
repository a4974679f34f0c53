package admission

import "github.com/genplay/genplay/engine/resource"

// Operations of admission requests.
const (
	OpCreate = "CREATE"
	OpUpdate = "UPDATE"
	OpDelete = "DELETE"
	// OpConnect is the operation of exec, attach and port-forward requests.
	OpConnect = "CONNECT"
)

// Usernames Kyverno's webhooks and controllers tell apart.
const (
	// BackgroundUser is Kyverno's background controller, which writes
	// every downstream.
	BackgroundUser = "system:serviceaccount:kyverno:kyverno-background-controller"
	// ReportsUser is Kyverno's reports controller, which writes
	// PolicyReports.
	ReportsUser = "system:serviceaccount:kyverno:kyverno-reports-controller"
	// AdmissionControllerUser is Kyverno's admission controller, which
	// writes the webhook configurations.
	AdmissionControllerUser = "system:serviceaccount:kyverno:kyverno-admission-controller"
	// NamespaceControllerUser and GarbageCollectorUser are the Kubernetes
	// controllers that delete objects in cascades.
	NamespaceControllerUser = "system:serviceaccount:kube-system:namespace-controller"
	GarbageCollectorUser    = "system:serviceaccount:kube-system:generic-garbage-collector"
)

// Request is an admission request as Kyverno's webhook sees it.
type Request struct {
	Operation string
	Object    resource.Object // nil on DELETE
	OldObject resource.Object // nil on CREATE
	User      UserInfo
	// SubResource is set for a request on a subresource ("exec" for a
	// CONNECT on pods/exec): Object is then the subresource's object (a
	// PodExecOptions), and Resource the kind of the resource it belongs to
	// (v1 Pod), which kinds entries such as "Pod/exec" select.
	SubResource string
	Resource    resource.GVK
}

// UserInfo is the requesting user and the roles bound to it.
type UserInfo struct {
	Username     string
	Groups       []string
	Roles        []string // "namespace:role"
	ClusterRoles []string
}

// Empty reports whether u is nil or names nobody: a background request.
func (u *UserInfo) Empty() bool {
	return u == nil || u.Username == "" && len(u.Groups) == 0 && len(u.Roles) == 0 && len(u.ClusterRoles) == 0
}
