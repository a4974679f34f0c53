package variables

import (
	"errors"
	"math/bits"

	gojmespath "github.com/kyverno/go-jmespath"
)

// workFunction is the meter instrument inserts into a parsed expression.
// The interpreter offers no hook per step, so the work of a projection
// (a[*].b, a[?c], a.*) or of a built-in that iterates an array (sort_by,
// map, max_by, ...) is charged where the iteration starts: the iterated
// value passes through the meter, which charges its length times the
// size of what runs per element, times log2 of it for a sort. A user who
// calls it by name only pays more.
const workFunction = "__genplay_work"

// iterating reports whether a built-in's work grows with an argument's
// length, and whether it sorts.
func iterating(name string) (iterates, sorts bool) {
	switch name {
	case "sort", "sort_by":
		return true, true
	case "max_by", "min_by", "map", "reverse", "contains", "max", "min", "avg", "keys", "values", "merge",
		"not_null", "starts_with", "ends_with":
		return true, false
	}
	return false, false
}

// instrument returns node with a meter around what each projection and
// iterating built-in iterates. node is freshly parsed: it is changed in
// place.
func instrument(node gojmespath.ASTNode) gojmespath.ASTNode {
	for i := range node.Children {
		node.Children[i] = instrument(node.Children[i])
	}
	switch node.NodeType {
	case gojmespath.ASTProjection, gojmespath.ASTFilterProjection, gojmespath.ASTValueProjection:
		if len(node.Children) > 1 {
			node.Children[0] = meter(node.Children[0], 1+size(node.Children[1:]), false)
		}
	case gojmespath.ASTFunctionExpression:
		name, _ := node.Value.(string)
		ok, sorts := iterating(name)
		if !ok {
			break
		}
		per := 1
		for _, c := range node.Children {
			if c.NodeType == gojmespath.ASTExpRef {
				per += size(c.Children)
			}
		}
		for i, c := range node.Children {
			if c.NodeType != gojmespath.ASTExpRef {
				node.Children[i] = meter(c, per, sorts)
			}
		}
	}
	return node
}

func meter(of gojmespath.ASTNode, per int, sorts bool) gojmespath.ASTNode {
	return gojmespath.ASTNode{NodeType: gojmespath.ASTFunctionExpression, Value: workFunction, Children: []gojmespath.ASTNode{
		of,
		{NodeType: gojmespath.ASTLiteral, Value: float64(per)},
		{NodeType: gojmespath.ASTLiteral, Value: sorts},
	}}
}

// size counts the nodes of a subtree: the work of running it once.
func size(nodes []gojmespath.ASTNode) int {
	n := 0
	for _, c := range nodes {
		n += 1 + size(c.Children)
	}
	return n
}

// work is the meter's handler: (value, per element, sorts) -> value.
func (b *boundCaller) work(arguments []any) (any, error) {
	if len(arguments) != 3 {
		return nil, errors.New("JMESPath function '" + workFunction + "': wants 3 arguments")
	}
	per, _ := arguments[1].(float64)
	sorts, _ := arguments[2].(bool)
	n := shallowSize(arguments[0])
	units := n * int64(max(1, min(per, 1<<20)))
	if sorts && n > 1 {
		units *= int64(bits.Len64(uint64(n)))
	}
	if err := b.ev.opts.Budget.Charge(units, "JMESPath"); err != nil {
		return nil, err
	}
	return arguments[0], nil
}
