package scenario

import "github.com/genplay/genplay/engine/internal/schema"

// Schema describes the fields of a chainsaw Test that Parse accepts, built
// from the same lists Parse checks against, for the editor's field
// reference (engine/fieldref). Leaves are schema.Any: Parse reads their
// types itself. An operation's `resource` is a Kubernetes object, also
// Any here; the field reference describes it by its kind.
func Schema() *schema.Schema {
	fields := func(names []string, known map[string]*schema.Schema) *schema.Schema {
		props := make(map[string]*schema.Schema, len(names))
		for _, n := range names {
			props[n] = schema.Any()
			if s, ok := known[n]; ok {
				props[n] = s
			}
		}
		return schema.Object(props)
	}
	bindings := schema.ArrayOf(fields(bindingFields, nil))
	timeouts := fields(timeoutsFields, nil)
	operations := func(types []string) *schema.Schema {
		props := map[string]*schema.Schema{}
		for _, n := range opBase {
			props[n] = schema.Any()
		}
		for _, typ := range types {
			props[typ] = fields(opFields[typ], map[string]*schema.Schema{
				"bindings": bindings,
				"expect":   schema.ArrayOf(fields(expectFields, nil)),
				"outputs":  schema.ArrayOf(fields(outputFields, nil)),
				"ref":      fields(refFields, nil),
				"for":      fields(waitForFields, nil),
			})
		}
		return schema.ArrayOf(schema.Object(props))
	}
	step := fields(stepFields, map[string]*schema.Schema{
		"use":      fields(useFields, map[string]*schema.Schema{"with": fields(withFields, map[string]*schema.Schema{"bindings": bindings})}),
		"bindings": bindings,
		"timeouts": timeouts,
		"try":      operations(tryOps),
		"catch":    operations(finallyOps),
		"finally":  operations(finallyOps),
		"cleanup":  operations(finallyOps),
	})
	spec := fields(testFields, map[string]*schema.Schema{
		"bindings": bindings,
		"timeouts": timeouts,
		"steps":    schema.ArrayOf(step),
		"catch":    operations(finallyOps),
	})
	return fields(testRootFields, map[string]*schema.Schema{"metadata": schema.Free(), "spec": spec})
}
