module github.com/genplay/genplay/oracle

go 1.26

require (
	github.com/genplay/genplay v0.0.0
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/kyverno/go-jmespath v0.4.1-0.20231124160150-95e59c162877 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
)

replace github.com/genplay/genplay => ../
