module github.com/genplay/genplay

go 1.26

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/chromedp/chromedp v0.23.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/hack-pad/safejs v0.1.1 // indirect
	github.com/itchyny/gojq v0.12.20 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
	github.com/kyverno/go-jmespath v0.4.1-0.20231124160150-95e59c162877 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	github.com/syumai/workers v0.33.0 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)
