// Package quantity parses and prints Kubernetes resource quantities ("500m",
// "1.5Gi", "2e3") without depending on k8s.io/apimachinery. Values are exact
// rationals. String follows the apimachinery canonical form (largest suffix
// that keeps an integer mantissa, nano precision, BinarySI falling back to
// DecimalSI below 1024 or for fractions); exotic corner cases of
// apimachinery's rounding are not reproduced.
package quantity
