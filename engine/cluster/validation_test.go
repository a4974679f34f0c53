package cluster

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func TestNameRules(t *testing.T) {
	tests := []struct {
		name  string
		rule  NameRule
		value string
		valid bool
	}{
		{"a subdomain may hold dots", NameSubdomain, "settings.team-a.example", true},
		{"a subdomain may be 253 characters", NameSubdomain, strings.Repeat("a", 253), true},
		{"a subdomain may not be 254 characters", NameSubdomain, strings.Repeat("a", 254), false},
		{"a subdomain may not hold upper case", NameSubdomain, "Settings", false},
		{"a subdomain may not start with a dash", NameSubdomain, "-settings", false},
		{"a subdomain may not end with a dot", NameSubdomain, "settings.", false},
		{"a subdomain may not hold a colon", NameSubdomain, "system:settings", false},
		{"a label may be 63 characters", NameLabel, strings.Repeat("a", 63), true},
		{"a label may not be 64 characters", NameLabel, strings.Repeat("a", 64), false},
		{"a label may not hold dots", NameLabel, "team.a", false},
		{"a label may start with a digit", NameLabel, "1team", true},
		{"a DNS-1035 label may not start with a digit", NameDNS1035Label, "1web", false},
		{"a DNS-1035 label may start with a letter", NameDNS1035Label, "web-1", true},
		{"a path segment may hold colons and upper case", NamePathSegment, "system:Aggregate-To-Admin", true},
		{"a path segment may not hold a slash", NamePathSegment, "a/b", false},
		{"a path segment may not hold a percent sign", NamePathSegment, "a%b", false},
		{"a path segment may not be dot-dot", NamePathSegment, "..", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := checkName(tt.rule, tt.value)
			if tt.valid {
				assert.Empty(t, errs)
			} else {
				assert.NotEmpty(t, errs)
			}
		})
	}
}

func TestLabelsAndAnnotations(t *testing.T) {
	tests := []struct {
		name   string
		key    string
		value  string
		valid  bool
		detail string
	}{
		{"a plain key and value are valid", "app", "web", true, ""},
		{"an empty value is valid", "app", "", true, ""},
		{"a prefixed key is valid", "app.kubernetes.io/name", "web", true, ""},
		{"a key may hold upper case, dots and underscores", "My_Key.v1", "Value_1.x", true, ""},
		{"a 63-character name part is valid", strings.Repeat("k", 63), "v", true, ""},
		{"a 64-character name part is invalid", strings.Repeat("k", 64), "v", false, "name part must be no more than 63 characters"},
		{"an upper-case prefix is invalid", "Example.com/app", "v", false, "prefix part a lowercase RFC 1123 subdomain"},
		{"an empty prefix is invalid", "/app", "v", false, "prefix part must be non-empty"},
		{"an empty name part is invalid", "example.com/", "v", false, "name part must be non-empty"},
		{"two slashes are invalid", "a/b/c", "v", false, "a qualified name must consist of"},
		{"a key that ends with a dash is invalid", "app-", "v", false, "name part must consist of"},
		{"a value with a space is invalid", "app", "my web", false, "a valid label must be an empty string"},
		{"a 64-character value is invalid", "app", strings.Repeat("v", 64), false, "must be no more than 63 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(nil)
			_, err := s.Create(obj("v1", "Namespace", "", "labelled", map[string]string{tt.key: tt.value}))
			if tt.valid {
				assert.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), tt.detail)
			assert.Contains(t, err.Error(), "metadata.labels: Invalid value")
		})
	}

	t.Run("annotation keys are checked but their values are free", func(t *testing.T) {
		s := NewStore(nil)
		o := namespace("annotated")
		o.SetAnnotations(map[string]string{"example.com/note": "any text at all: / % !"})
		_, err := s.Create(o)
		assert.NoError(t, err)

		o = namespace("bad-annotation")
		o.SetAnnotations(map[string]string{"bad key": "x"})
		_, err = s.Create(o)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.Contains(t, err.Error(), `metadata.annotations: Invalid value: "bad key"`)
	})

	t.Run("annotations may not exceed 256 KiB in total", func(t *testing.T) {
		o := namespace("big")
		o.SetAnnotations(map[string]string{"note": strings.Repeat("x", 256*1024)})
		_, err := NewStore(nil).Create(o)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.Contains(t, err.Error(), "metadata.annotations: Too long: may not be more than 262144 bytes")
	})

	t.Run("a label value that is not a string is invalid", func(t *testing.T) {
		o := namespace("typed")
		o.Metadata()["labels"] = map[string]any{"replicas": 3.0}
		_, err := NewStore(nil).Create(o)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.Contains(t, err.Error(), "metadata.labels[replicas]: Invalid value: 3: must be a string")
	})

	t.Run("labels that are not a map are invalid", func(t *testing.T) {
		o := namespace("typed")
		o.Metadata()["labels"] = []any{"a"}
		_, err := NewStore(nil).Create(o)
		assert.ErrorIs(t, err, ErrInvalid)
	})

	t.Run("kinds apply their own name rule", func(t *testing.T) {
		tests := []struct {
			obj   resource.Object
			valid bool
		}{
			{obj("v1", "Namespace", "", "team.a", nil), false},
			{obj("v1", "Service", "team-a", "1web", nil), false},
			{obj("v1", "ConfigMap", "team-a", "1web.config", nil), true},
			{obj("rbac.authorization.k8s.io/v1", "ClusterRole", "", "system:aggregate-to-view", nil), true},
			{obj("rbac.authorization.k8s.io/v1", "Role", "team-a", "system:role", nil), true},
			{obj("v1", "ConfigMap", "team-a", "system:config", nil), false},
		}
		for _, tt := range tests {
			s := NewStore(nil)
			mustCreate(t, s, namespace("team-a"))
			_, err := s.Create(tt.obj)
			if tt.valid {
				assert.NoError(t, err, tt.obj.Ref().String())
			} else {
				assert.ErrorIs(t, err, ErrInvalid, tt.obj.Ref().String())
			}
		}
	})
}
