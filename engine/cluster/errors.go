package cluster

import (
	"fmt"
	"github.com/genplay/genplay/engine/resource"
	"strconv"
	"strings"
)

// Reason says why a request failed, with the names the Kubernetes API uses
// (metav1.StatusReason).
type Reason string

// The reasons the Store returns.
const (
	ReasonNotFound      Reason = "NotFound"
	ReasonAlreadyExists Reason = "AlreadyExists"
	ReasonConflict      Reason = "Conflict"
	ReasonInvalid       Reason = "Invalid"
	ReasonBadRequest    Reason = "BadRequest"
	ReasonForbidden     Reason = "Forbidden"
	// ReasonRequestEntityTooLarge: a request body over the API server's
	// limit (MaxRequestBytes).
	ReasonRequestEntityTooLarge Reason = "RequestEntityTooLarge"
	// ReasonInternalError: what the API server answers when etcd refuses
	// an object over its request limit (MaxObjectBytes).
	ReasonInternalError Reason = "InternalError"
)

// StatusError is the error every Store method returns. Message reads like
// the message the real API server sends, for example
// `configmaps "settings" not found`.
type StatusError struct {
	Reason  Reason
	Code    int // the HTTP status code the API server would answer with
	Message string
	// Causes lists the field errors of an Invalid error, in the order found.
	Causes []FieldError
	// Kind and Name are the details of an Invalid error (the kind and name
	// of the object refused), which kubectl prints instead of Message.
	Kind, Name string
}

// Error returns Message.
func (e *StatusError) Error() string { return e.Message }

// HTTPStatus is the HTTP status code the API server answers with (Code),
// for callers that tell errors apart by it without importing this package.
func (e *StatusError) HTTPStatus() int { return e.Code }

// Is makes errors.Is(err, ErrNotFound) and friends match any StatusError
// with the same Reason.
func (e *StatusError) Is(target error) bool {
	t, ok := target.(*StatusError)
	return ok && t.Reason == e.Reason
}

// Sentinels for errors.Is. They match by Reason only.
var (
	ErrNotFound      = &StatusError{Reason: ReasonNotFound, Code: 404, Message: "not found"}
	ErrAlreadyExists = &StatusError{Reason: ReasonAlreadyExists, Code: 409, Message: "already exists"}
	ErrConflict      = &StatusError{Reason: ReasonConflict, Code: 409, Message: "conflict"}
	ErrInvalid       = &StatusError{Reason: ReasonInvalid, Code: 422, Message: "invalid"}
	ErrBadRequest    = &StatusError{Reason: ReasonBadRequest, Code: 400, Message: "bad request"}
	ErrForbidden     = &StatusError{Reason: ReasonForbidden, Code: 403, Message: "forbidden"}
	ErrTooLarge      = &StatusError{Reason: ReasonRequestEntityTooLarge, Code: 413, Message: "too large"}
)

// FieldError is one problem with one field, as in the API server's
// field.Error.
type FieldError struct {
	Type   string // "Required value", "Invalid value", "Forbidden" ...
	Field  string // "metadata.name"
	Value  string // the offending value, already quoted as the API server shows it; "" when Type is Required value
	Detail string
}

// Error renders the field error as the API server does:
// `metadata.name: Invalid value: "Foo": a lowercase RFC 1123 ...`.
func (f FieldError) Error() string {
	var b strings.Builder
	b.WriteString(f.Field)
	b.WriteString(": ")
	b.WriteString(f.Type)
	if f.Value != "" {
		b.WriteString(": ")
		b.WriteString(f.Value)
	}
	if f.Detail != "" {
		b.WriteString(": ")
		b.WriteString(f.Detail)
	}
	return b.String()
}

// qualified returns the resource name used in messages: "configmaps",
// "deployments.apps".
func qualified(k KindInfo) string {
	if k.Group == "" {
		return k.Resource
	}
	return k.Resource + "." + k.Group
}

func notFound(k KindInfo, name string) *StatusError {
	return &StatusError{Reason: ReasonNotFound, Code: 404,
		Message: qualified(k) + " " + strconv.Quote(name) + " not found"} // fmt's %q, without fmt: Get's miss is common
}

func alreadyExists(k KindInfo, name string) *StatusError {
	return &StatusError{Reason: ReasonAlreadyExists, Code: 409,
		Message: fmt.Sprintf("%s %q already exists", qualified(k), name)}
}

func conflict(k KindInfo, name, why string) *StatusError {
	return &StatusError{Reason: ReasonConflict, Code: 409,
		Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: %s", qualified(k), name, why)}
}

func badRequest(msg string) *StatusError {
	return &StatusError{Reason: ReasonBadRequest, Code: 400, Message: msg}
}

// The sizes a real cluster refuses: the API server reads a request body
// of at most 3 MiB (k8s.io/apiserver's MaxRequestBodyBytes: "Request
// entity too large: limit is 3145728"), and etcd stores a value of at most
// 1.5 MiB (--max-request-bytes; the API server passes its
// "etcdserver: request is too large" on). Sizes are the object's compact
// JSON.
const (
	MaxRequestBytes = 3 << 20
	MaxObjectBytes  = 3 << 19
)

// checkRequestSize refuses a request body too large for the API server,
// checkStoredSize an object too large for etcd, which the API server finds
// out only after validation and admission. The object is measured, not
// encoded, and the measure stops just past the limit: an object that
// holds a thousand references to one long string is refused after reading
// 3 MiB of it.
func checkRequestSize(o resource.Object) error {
	if resource.JSONSize(map[string]any(o), MaxRequestBytes) > MaxRequestBytes {
		return &StatusError{Reason: ReasonRequestEntityTooLarge, Code: 413,
			Message: fmt.Sprintf("Request entity too large: limit is %d", MaxRequestBytes)}
	}
	return nil
}

func checkStoredSize(o resource.Object) error {
	if resource.JSONSize(map[string]any(o), MaxObjectBytes) > MaxObjectBytes {
		return &StatusError{Reason: ReasonInternalError, Code: 500, Message: "etcdserver: request is too large"}
	}
	return nil
}

func forbidden(msg string) *StatusError {
	return &StatusError{Reason: ReasonForbidden, Code: 403, Message: msg}
}

// Invalid is the API server's Invalid error for the object kind/name (a
// Kind, or "Kind.group" for the kinds the API server qualifies) with its
// field errors. Its message reads `ConfigMap "Foo" is invalid:
// metadata.name: ...`, with several causes in square brackets.
func Invalid(kind, name string, causes []FieldError) *StatusError {
	parts := make([]string, len(causes))
	for i, c := range causes {
		parts[i] = c.Error()
	}
	detail := strings.Join(parts, ", ")
	if len(parts) > 1 {
		detail = "[" + detail + "]"
	}
	short, _, _ := strings.Cut(kind, ".")
	return &StatusError{Reason: ReasonInvalid, Code: 422, Causes: causes, Kind: short, Name: name,
		Message: fmt.Sprintf("%s %q is invalid: %s", kind, name, detail)}
}
