package shell

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

// printObjects prints objects in the command's -o format.
func (r *runner) printObjects(c *Command, objs []resource.Object, single bool, o *kubectlOutput) error {
	var v any
	if single && len(objs) == 1 {
		v = map[string]any(objs[0])
	} else {
		items := make([]any, len(objs))
		for i, obj := range objs {
			items[i] = map[string]any(obj)
		}
		v = map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""}}
	}
	// What kubectl would print is measured before it is built: a script
	// prints at most maxShellBytes.
	tooMuch := fmt.Errorf("kubectl get would print more than %d bytes; genplay stops the script", maxShellBytes)
	switch c.Output {
	case "json":
		if resource.JSONSize(v, maxShellBytes) > maxShellBytes {
			return tooMuch
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "    ")
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("print json: %w", err)
		}
		o.stdout.Write(buf.Bytes())
	case "yaml":
		b, err := source.MarshalLimit(v, maxShellBytes)
		if errors.Is(err, source.ErrTooLarge) {
			return tooMuch
		}
		if err != nil {
			return fmt.Errorf("print yaml: %w", err)
		}
		o.stdout.Write(b)
	case "name":
		for _, obj := range objs {
			fmt.Fprintln(&o.stdout, typeName(r.kindInfo(obj), obj.Name()))
		}
	case "jsonpath=" + strings.TrimPrefix(c.Output, "jsonpath="):
		if !single || len(objs) != 1 {
			return &scenario.UnsupportedError{Reason: "prints -o " + c.Output + " for a list, which genplay does not reproduce (only for one named object)"}
		}
		return printJSONPath(map[string]any(objs[0]), c.Output, o)
	default:
		return r.printTable(c, objs, o)
	}
	return nil
}

// printTable prints kubectl's default table for the kinds whose columns
// genplay reproduces (Namespace, ConfigMap, Secret, ServiceAccount); other
// kinds have columns filled by controllers or printer definitions genplay
// does not have, so asking for their table is not simulated.
func (r *runner) printTable(c *Command, objs []resource.Object, o *kubectlOutput) error {
	kinds := map[string][]string{
		"Namespace":      {"STATUS"},
		"ConfigMap":      {"DATA"},
		"Secret":         {"TYPE", "DATA"},
		"ServiceAccount": {"SECRETS"},
	}
	kind := objs[0].Kind()
	extra, ok := kinds[kind]
	for _, obj := range objs {
		if obj.Kind() != kind {
			ok = false
		}
	}
	if !ok {
		return &scenario.UnsupportedError{Reason: "prints kubectl's table for " + kind + ", whose columns genplay does not reproduce (use -o json, yaml or name)"}
	}
	w := tabwriter.NewWriter(&o.stdout, 0, 8, 3, ' ', 0)
	header := append(append([]string{"NAME"}, extra...), "AGE")
	if c.AllNamespaces && kind != "Namespace" {
		header = append([]string{"NAMESPACE"}, header...)
	}
	fmt.Fprintln(w, strings.Join(header, "\t"))
	now := r.s.Now()
	for _, obj := range objs {
		age := "<unknown>"
		if t, err := time.Parse(time.RFC3339, obj.NestedString("metadata", "creationTimestamp")); err == nil {
			age = shortDuration(now.Sub(t))
		}
		row := []string{obj.Name()}
		switch kind {
		case "Namespace":
			row = append(row, orDefault(obj.NestedString("status", "phase"), "Active"))
		case "ConfigMap":
			data, _ := obj["data"].(map[string]any)
			bin, _ := obj["binaryData"].(map[string]any)
			row = append(row, strconv.Itoa(len(data)+len(bin)))
		case "Secret":
			data, _ := obj["data"].(map[string]any)
			row = append(row, orDefault(stringValue(obj["type"]), "Opaque"), strconv.Itoa(len(data)))
		case "ServiceAccount":
			secrets, _ := obj["secrets"].([]any)
			row = append(row, strconv.Itoa(len(secrets)))
		}
		row = append(row, age)
		if c.AllNamespaces && kind != "Namespace" {
			row = append([]string{obj.Namespace()}, row...)
		}
		fmt.Fprintln(w, strings.Join(row, "\t"))
	}
	return w.Flush()
}

func shortDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < 2*time.Minute:
		return strconv.Itoa(int(d.Seconds())) + "s"
	case d < 2*time.Hour:
		return strconv.Itoa(int(d.Minutes())) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d.Hours())) + "h"
	}
	return strconv.Itoa(int(d.Hours()/24)) + "d"
}

// simpleJSONPath is the -o jsonpath form genplay prints: one path of
// fields and list indices ({.a.b[0].c}).
var simpleJSONPath = regexp.MustCompile(`^jsonpath=\{(\.[A-Za-z0-9_-]+(\[-?[0-9]+\])*)+\}$`)

// jsonPathSegment is one field or index of such a path.
var jsonPathSegment = regexp.MustCompile(`\.([A-Za-z0-9_-]+)|\[(-?[0-9]+)\]`)

// printJSONPath prints what the path output (-o jsonpath={...}) selects
// in v: a string as it is, anything else as JSON, nothing for a missing
// key (kubectl's --allow-missing-template-keys, on by default).
func printJSONPath(v any, output string, o *kubectlOutput) error {
	for _, m := range jsonPathSegment.FindAllStringSubmatch(strings.TrimPrefix(output, "jsonpath="), -1) {
		if m[1] != "" {
			obj, _ := v.(map[string]any)
			v = obj[m[1]]
			continue
		}
		list, _ := v.([]any)
		i, _ := strconv.Atoi(m[2])
		if i < 0 {
			i += len(list)
		}
		if i < 0 || i >= len(list) {
			o.errorf("error: error executing jsonpath %q: Error executing template: array index out of bounds: index %s, length %d",
				strings.TrimPrefix(output, "jsonpath="), m[2], len(list))
			return nil
		}
		v = list[i]
	}
	switch x := v.(type) {
	case nil:
	case string:
		o.stdout.WriteString(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Errorf("print jsonpath: %w", err)
		}
		o.stdout.Write(b)
	}
	return nil
}
