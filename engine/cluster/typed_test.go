package cluster

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func withData(kind string, fields map[string]any) resource.Object {
	o := resource.Object{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": "settings", "namespace": "team-a"}}
	for k, v := range fields {
		o[k] = v
	}
	return o
}

func TestConfigMapAndSecretDataAreDecodedAsTheAPIServerDecodesThem(t *testing.T) {
	for _, tt := range []struct {
		name   string
		obj    resource.Object
		reason error
		want   string
	}{
		{"a boolean in a ConfigMap's data", withData("ConfigMap", map[string]any{"data": map[string]any{"enabled": true}}), ErrBadRequest,
			`ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string`},
		{"a number in a ConfigMap's data", withData("ConfigMap", map[string]any{"data": map[string]any{"replicas": 3.0}}), ErrBadRequest,
			"json: cannot unmarshal number into Go struct field ConfigMap.data of type string"},
		{"a map in a ConfigMap's data", withData("ConfigMap", map[string]any{"data": map[string]any{"nested": map[string]any{}}}), ErrBadRequest,
			"json: cannot unmarshal object into Go struct field ConfigMap.data of type string"},
		{"several bad values: the first in key order is named", withData("ConfigMap", map[string]any{"data": map[string]any{
			"e": true, "b": []any{}, "a": 1.0, "d": true, "c": map[string]any{}, "f": true}}), ErrBadRequest,
			"json: cannot unmarshal number into Go struct field ConfigMap.data of type string"},
		{"a list as a ConfigMap's data", withData("ConfigMap", map[string]any{"data": []any{"a"}}), ErrBadRequest,
			"json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string"},
		{"binaryData that is not base64", withData("ConfigMap", map[string]any{"binaryData": map[string]any{"k": "not base64!"}}), ErrBadRequest,
			"cannot be handled as a ConfigMap: illegal base64 data at input byte 3"},
		{"a Secret's data that is not base64", withData("Secret", map[string]any{"data": map[string]any{"token": "abc"}}), ErrBadRequest,
			`Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0`},
		{"a list in a Secret's stringData", withData("Secret", map[string]any{"stringData": map[string]any{"token": []any{}}}), ErrBadRequest,
			"json: cannot unmarshal array into Go struct field Secret.stringData of type string"},
		{"a bad config key", withData("ConfigMap", map[string]any{"data": map[string]any{"bad key": "v"}}), ErrInvalid,
			`ConfigMap "settings" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters`},
		{"several bad keys are reported in key order", withData("ConfigMap", map[string]any{"data": map[string]any{"z z": "v", "a a": "v", "ok": "v"}}), ErrInvalid,
			`ConfigMap "settings" is invalid: [data[a a]: Invalid value: "a a": a valid config key`},
		{"a key of two dots", withData("Secret", map[string]any{"stringData": map[string]any{"..": "v"}}), ErrInvalid,
			`Secret "settings" is invalid: data[..]: Invalid value: "..": must not be '..'`},
		{"over 1 MiB in a ConfigMap", withData("ConfigMap", map[string]any{"data": map[string]any{"big": strings.Repeat("x", 1<<20)}}), ErrInvalid,
			`ConfigMap "settings" is invalid: []: Too long: must have at most 1048576 bytes`},
		{"over 1 MiB in a Secret", withData("Secret", map[string]any{"stringData": map[string]any{"big": strings.Repeat("x", 1<<20)}}), ErrInvalid,
			`Secret "settings" is invalid: data: Too long: must have at most 1048576 bytes`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(nil)
			mustCreate(t, s, namespace("team-a"))
			_, err := s.Create(tt.obj.DeepCopy())
			require.Error(t, err)
			assert.True(t, errors.Is(err, tt.reason), "%v", err)
			assert.Contains(t, err.Error(), tt.want)

			good := withData(tt.obj.Kind(), nil)
			_, err = s.Create(good)
			require.NoError(t, err)
			next := tt.obj.DeepCopy()
			_, err = s.Update(next)
			assert.True(t, errors.Is(err, tt.reason), "an update is checked too: %v", err)
		})
	}
}

func TestConfigMapAndSecretDataThatDecode(t *testing.T) {
	s := NewStore(nil)
	mustCreate(t, s, namespace("team-a"))
	cm, err := s.Create(withData("ConfigMap", map[string]any{
		"data":       map[string]any{"a": "1", "empty": nil, "KEY_name.x-y": "v"},
		"binaryData": map[string]any{"b": "aGVsbG8="}}))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": "1", "empty": "", "KEY_name.x-y": "v"}, cm["data"], "null decodes as the empty string")

	sec, err := s.Create(withData("Secret", map[string]any{"data": map[string]any{"token": "aGVsbG8="}, "stringData": map[string]any{"user": "admin"}}))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"token": "aGVsbG8=", "user": "YWRtaW4="}, sec["data"])

	other, err := s.Create(resource.Object{"apiVersion": "example.com/v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "x", "namespace": "team-a"}, "data": map[string]any{"n": 1.0}})
	require.NoError(t, err, "another group's ConfigMap is not the core one")
	assert.Equal(t, 1.0, other["data"].(map[string]any)["n"])
}
