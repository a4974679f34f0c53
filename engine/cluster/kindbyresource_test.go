package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKindByResourceFindsAKindByItsAPIPath(t *testing.T) {
	s := NewStore(NewClock())
	k, ok := s.KindByResource("", "v1", "configmaps")
	assert.True(t, ok)
	assert.Equal(t, "ConfigMap", k.Kind)
	k, ok = s.KindByResource("networking.k8s.io", "v1", "networkpolicies")
	assert.True(t, ok)
	assert.Equal(t, "NetworkPolicy", k.Kind)
	_, ok = s.KindByResource("", "v2", "configmaps")
	assert.False(t, ok, "the version is part of the path")
	_, ok = s.KindByResource("", "v1", "configmap")
	assert.False(t, ok, "the resource is the plural")
}
