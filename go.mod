module github.com/genplay/genplay

go 1.26

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/hack-pad/safejs v0.1.1
	github.com/itchyny/gojq v0.12.20
	github.com/kyverno/go-jmespath v0.4.1-0.20231124160150-95e59c162877
	github.com/stretchr/testify v1.12.1
	github.com/syumai/workers v0.33.0
	go.yaml.in/yaml/v3 v3.0.6
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
)
