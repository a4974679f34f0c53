package migrate

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	gojmespath "github.com/kyverno/go-jmespath"
)

// scope is what a JMESPath expression of one rule can refer to, and how
// each root translates to CEL.
type scope struct {
	// vars maps a context entry's name to its CEL form ("variables.name").
	vars map[string]string
	// element is the CEL name of a foreach element; "" outside foreach.
	element string
	// elementIndex is the CEL name of its index; "" when not iterated by index.
	elementIndex string
	// trigger is the CEL form of request.object: "object", or the
	// DELETE-aware form when the rule generates on trigger deletion.
	trigger string
}

// unconvertible is a JMESPath construct with no faithful CEL form.
type unconvertible struct {
	reason string
	recipe string
}

func (u *unconvertible) Error() string { return u.reason }

func refuse(recipe, format string, args ...any) *unconvertible {
	return &unconvertible{reason: fmt.Sprintf(format, args...), recipe: recipe}
}

// admission notes a root that needs admission information; the caller
// turns it into a finding (background evaluations see none).
type translation struct {
	cel string
	// admission lists the admission-only variables the expression reads.
	admission []string
	// operation is set when the expression reads request.operation.
	operation bool
	// valueDefault is the first `x || default` whose x is not a path (see
	// or).
	valueDefault string
}

// maxExpression bounds one JMESPath expression, as engine/variables does.
const maxExpression = 64 << 10

// celIdent matches a CEL identifier that can follow a dot.
var celIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// celReserved are CEL's reserved words: they cannot follow a dot.
var celReserved = []string{"true", "false", "null", "in", "as", "break", "const", "continue", "else", "for",
	"function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while"}

// selectField appends a field selection to a CEL operand.
func selectField(base, name string, optional bool) string {
	if celIdent.MatchString(name) && !slices.Contains(celReserved, name) {
		if optional {
			return base + ".?" + name
		}
		return base + "." + name
	}
	if optional {
		return base + "[?" + quote(name) + "]"
	}
	return base + "[" + quote(name) + "]"
}

// quote renders a CEL string literal, single-quoted so that it reads well
// inside a YAML double-quoted scalar.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\'':
			b.WriteString(`\'`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// translateJMESPath turns one JMESPath expression (without braces) into CEL.
func translateJMESPath(expr string, sc *scope) (*translation, error) {
	expr = strings.TrimSpace(expr)
	if strings.HasPrefix(expr, "-") { // {{- expr}}: shallow substitution, same value
		expr = strings.TrimSpace(expr[1:])
	}
	if len(expr) > maxExpression {
		return nil, refuse("", "the JMESPath expression is longer than %d bytes", maxExpression)
	}
	node, err := gojmespath.NewParser().Parse(expr)
	if err != nil {
		return nil, refuse("", "the JMESPath expression %q does not parse: %v", expr, err)
	}
	t := &translation{}
	out, err := t.node(node, sc)
	if err != nil {
		return nil, err
	}
	t.cel = out
	return t, nil
}

// path flattens a chain of field selections (a.b."c.d") into its names;
// ok is false when node is anything else.
func path(node gojmespath.ASTNode) ([]string, bool) {
	switch node.NodeType {
	case gojmespath.ASTField:
		s, ok := node.Value.(string)
		return []string{s}, ok
	case gojmespath.ASTSubexpression:
		if len(node.Children) != 2 {
			return nil, false
		}
		l, ok := path(node.Children[0])
		if !ok {
			return nil, false
		}
		r, ok := path(node.Children[1])
		if !ok {
			return nil, false
		}
		return append(l, r...), true
	}
	return nil, false
}

// root translates the first names of a variable path to a CEL operand and
// returns how many names it consumed.
func (t *translation) root(names []string, sc *scope) (string, int, error) {
	first := names[0]
	switch first {
	case "request":
		if len(names) == 1 {
			return "", 0, refuse("", "the whole request object has no CEL equivalent of the same shape")
		}
		switch names[1] {
		case "object":
			return sc.trigger, 2, nil
		case "oldObject":
			return "oldObject", 2, nil
		case "namespace", "name", "kind", "resource", "subResource", "uid", "dryRun", "options":
			return "request." + names[1], 2, nil
		case "operation":
			t.operation = true
			return "request.operation", 2, nil
		case "userInfo":
			t.admission = append(t.admission, "request.userInfo")
			return "request.userInfo", 2, nil
		case "roles", "clusterRoles":
			return "", 0, refuse("match on the user's groups (request.userInfo.groups) instead, or look the bindings up with resource.List(\"rbac.authorization.k8s.io/v1\", \"rolebindings\", ns)",
				"request.%s (the roles Kyverno computes from RBAC) has no CEL equivalent in a GeneratingPolicy", names[1])
		}
		return "", 0, refuse("", "request.%s has no CEL equivalent", names[1])
	case "serviceAccountName", "serviceAccountNamespace":
		return "", 0, refuse(`request.userInfo.username.split(":") gives ["system", "serviceaccount", NAMESPACE, NAME] for a service account`,
			"%s is computed by Kyverno from the admission request; a GeneratingPolicy has no such variable", first)
	case "images":
		return "", 0, refuse("parse the images yourself: object.spec.containers.map(c, parseImageReference(c.image))",
			"the images variable has no CEL equivalent")
	case "element":
		if sc.element == "" {
			return "", 0, refuse("", "element is only defined inside foreach")
		}
		return sc.element, 1, nil
	case "elementIndex":
		if sc.elementIndex != "" {
			return sc.elementIndex, 1, nil
		}
		return "", 0, refuse("iterate over lists.range(size(LIST)) and index the list instead",
			"elementIndex has no equivalent in CEL's macros (two-variable comprehensions are not enabled in a GeneratingPolicy)")
	case "@":
		return "", 0, refuse("", "@ outside a function has no CEL equivalent")
	}
	if v, ok := sc.vars[first]; ok {
		return v, 1, nil
	}
	if cur, ok := sc.vars[currentKey]; ok { // a path relative to an apiCall's or globalReference's result
		return cur, 0, nil
	}
	return "", 0, refuse("", "the variable %q is not defined by the rule's context", first)
}

// pathCEL translates a field path; optional selects with ?. so that a
// missing field becomes an empty optional (for || defaults).
func (t *translation) pathCEL(names []string, sc *scope, optional bool) (string, error) {
	base, n, err := t.root(names, sc)
	if err != nil {
		return "", err
	}
	for _, name := range names[n:] {
		base = selectField(base, name, optional)
	}
	return base, nil
}

func (t *translation) node(node gojmespath.ASTNode, sc *scope) (string, error) {
	if names, ok := path(node); ok {
		return t.pathCEL(names, sc, false)
	}
	switch node.NodeType {
	case gojmespath.ASTCurrentNode, gojmespath.ASTIdentity:
		if cur, ok := sc.vars[currentKey]; ok {
			return cur, nil
		}
	case gojmespath.ASTLiteral:
		return literal(node.Value)
	case gojmespath.ASTIndexExpression:
		if len(node.Children) == 2 {
			base, err := t.node(node.Children[0], sc)
			if err != nil {
				return "", err
			}
			return index(base, node.Children[1])
		}
	case gojmespath.ASTSubexpression:
		// a.b[0].c: a subexpression that is not a plain path.
		if len(node.Children) == 2 {
			base, err := t.node(node.Children[0], sc)
			if err != nil {
				return "", err
			}
			return selectOn(base, node.Children[1])
		}
	case gojmespath.ASTOrExpression:
		return t.or(node, sc)
	case gojmespath.ASTAndExpression:
		l, r, err := t.pair(node, sc)
		if err != nil {
			return "", err
		}
		return celAnd(l, r), nil
	case gojmespath.ASTNotExpression:
		x, err := t.node(node.Children[0], sc)
		if err != nil {
			return "", err
		}
		return celNot(x), nil
	case gojmespath.ASTComparator:
		l, r, err := t.pair(node, sc)
		if err != nil {
			return "", err
		}
		sym, ok := comparator(node.Value)
		if !ok {
			return "", refuse("", "the comparator %v has no CEL equivalent", node.Value)
		}
		return group(l, precAdditive) + " " + sym + " " + group(r, precAdditive), nil
	case gojmespath.ASTFunctionExpression:
		return t.function(node, sc)
	case gojmespath.ASTMultiSelectList:
		var parts []string
		for _, c := range node.Children {
			p, err := t.node(c, sc)
			if err != nil {
				return "", err
			}
			parts = append(parts, p)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case gojmespath.ASTMultiSelectHash:
		var parts []string
		for _, kv := range node.Children {
			k, _ := kv.Value.(string)
			v, err := t.node(kv.Children[0], sc)
			if err != nil {
				return "", err
			}
			parts = append(parts, quote(k)+": "+v)
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	case gojmespath.ASTProjection, gojmespath.ASTValueProjection, gojmespath.ASTFilterProjection, gojmespath.ASTFlatten:
		return "", refuse("write the projection with CEL's macros: LIST.map(x, x.field), LIST.filter(x, COND)",
			"JMESPath projections and filters are not translated")
	case gojmespath.ASTPipe:
		left, err := t.node(node.Children[0], sc)
		if err != nil {
			return "", err
		}
		right := *sc
		right.vars = withCurrent(sc.vars, left)
		return t.node(node.Children[1], &right)
	}
	return "", refuse("", "the JMESPath construct %s is not translated", strings.TrimPrefix(node.NodeType.String(), "AST"))
}

// selectOn applies the right side of a subexpression (fields, indexes) to
// an operand.
func selectOn(base string, node gojmespath.ASTNode) (string, error) {
	switch node.NodeType {
	case gojmespath.ASTField:
		name, _ := node.Value.(string)
		return selectField(base, name, false), nil
	case gojmespath.ASTSubexpression, gojmespath.ASTIndexExpression:
		if len(node.Children) != 2 {
			break
		}
		left, err := selectOn(base, node.Children[0])
		if err != nil {
			return "", err
		}
		if node.NodeType == gojmespath.ASTSubexpression {
			return selectOn(left, node.Children[1])
		}
		return index(left, node.Children[1])
	case gojmespath.ASTIndex:
		return index(base, node)
	}
	return "", refuse("", "the JMESPath construct %s is not translated", strings.TrimPrefix(node.NodeType.String(), "AST"))
}

func index(base string, node gojmespath.ASTNode) (string, error) {
	if node.NodeType != gojmespath.ASTIndex {
		return "", refuse("write the projection with CEL's macros: LIST.map(x, x.field), LIST.filter(x, COND)",
			"JMESPath projections and filters are not translated")
	}
	i, _ := node.Value.(int)
	if i < 0 {
		return "", refuse(fmt.Sprintf("use LIST[size(LIST) - %d]", -i), "a negative index has no CEL equivalent")
	}
	return fmt.Sprintf("%s[%d]", base, i), nil
}

func (t *translation) pair(node gojmespath.ASTNode, sc *scope) (string, string, error) {
	if len(node.Children) != 2 {
		return "", "", refuse("", "malformed expression")
	}
	l, err := t.node(node.Children[0], sc)
	if err != nil {
		return "", "", err
	}
	r, err := t.node(node.Children[1], sc)
	if err != nil {
		return "", "", err
	}
	return l, r, nil
}

func comparator(v any) (string, bool) {
	switch fmt.Sprint(v) {
	case "tEQ":
		return "==", true
	case "tNE":
		return "!=", true
	case "tLT":
		return "<", true
	case "tLTE":
		return "<=", true
	case "tGT":
		return ">", true
	case "tGTE":
		return ">=", true
	}
	return "", false
}

// or translates `path || default`, the idiom for a field that may be
// missing, to an optional selection with orValue. JMESPath's || also
// replaces an empty string, list or map and false; orValue replaces only a
// missing field: the difference is noted in the recipe.
func (t *translation) or(node gojmespath.ASTNode, sc *scope) (string, error) {
	names, ok := path(node.Children[0])
	if !ok {
		l, r, err := t.pair(node, sc)
		if err != nil {
			return "", err
		}
		if isBoolean(node.Children[0]) {
			return celOr(l, r), nil
		}
		// A value or a default: Kyverno's orValue compatibility macro
		// returns a value that is not an optional as it is, and lets an
		// error through (it is strict), where JMESPath gives the default
		// for null, false and empty values. The caller notes it.
		if t.valueDefault == "" {
			t.valueDefault = l
		}
		return group(l, precPrimary) + ".orValue(" + unwrap(r) + ")", nil
	}
	base, err := t.pathCEL(names, sc, true)
	if err != nil {
		return "", err
	}
	def, err := t.node(node.Children[1], sc)
	if err != nil {
		return "", err
	}
	if !strings.Contains(base, ".?") && !strings.Contains(base, "[?") {
		// A bare variable: no optional selection to default (as above).
		if t.valueDefault == "" {
			t.valueDefault = base
		}
		return group(base, precPrimary) + ".orValue(" + unwrap(def) + ")", nil
	}
	return base + ".orValue(" + def + ")", nil
}

// isBoolean reports whether a JMESPath node yields a boolean.
func isBoolean(n gojmespath.ASTNode) bool {
	switch n.NodeType {
	case gojmespath.ASTComparator, gojmespath.ASTAndExpression, gojmespath.ASTOrExpression, gojmespath.ASTNotExpression:
		return true
	case gojmespath.ASTLiteral:
		_, ok := n.Value.(bool)
		return ok
	case gojmespath.ASTFunctionExpression:
		name, _ := n.Value.(string)
		return slices.Contains([]string{"regex_match", "starts_with", "ends_with", "contains", "equal_fold", "pattern_match"}, name)
	}
	return false
}

// literal renders a JMESPath literal value as CEL.
func literal(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "null", nil
	case string:
		return quote(x), nil
	case bool:
		return strconv.FormatBool(x), nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return strconv.FormatInt(int64(x), 10), nil
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case []any:
		var parts []string
		for _, e := range x {
			p, err := literal(e)
			if err != nil {
				return "", err
			}
			parts = append(parts, p)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var parts []string
		for _, k := range keys {
			p, err := literal(x[k])
			if err != nil {
				return "", err
			}
			parts = append(parts, quote(k)+": "+p)
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	}
	return "", refuse("", "the literal %v has no CEL form", v)
}

// functions maps Kyverno's JMESPath functions with a CEL counterpart to a
// template over the translated arguments ($1, $2, ...).
var functions = map[string]string{
	"to_upper":      "string($1).upperAscii()",
	"to_lower":      "string($1).lowerAscii()",
	"to_string":     "cel.bind(s, dyn($1), type(s) == string ? s : json.marshal(s))",
	"length":        "size($1)",
	"split":         "string($1).split($2)",
	"join":          "$2.join($1)",
	"replace_all":   "string($1).replace($2, $3)",
	"trim":          "string($1).trim()", // only whitespace: checked in function()
	"starts_with":   "string($1).startsWith($2)",
	"ends_with":     "string($1).endsWith($2)",
	"regex_match":   "string($2).matches($1)",
	"base64_encode": "base64.encode(bytes($1))",
	"base64_decode": "string(base64.decode($1))",
	"parse_json":    "json.unmarshal($1)",
	"parse_yaml":    "yaml.parse($1)",
	"sha256":        "sha256($1)",
	"sha1":          "sha1($1)",
	"md5":           "md5($1)",
	"time_now_utc":  "string(time.now())",
	"time_now":      "string(time.now())",
	"random":        "random($1)",
	"truncate":      "(size(string($1)) > int($2) ? string($1).substring(0, int($2)) : string($1))",
	"to_number":     "double($1)",
	"abs":           "math.abs($1)",
	"ceil":          "math.ceil($1)",
	"floor":         "math.floor($1)",
	"max":           "$1.max()",
	"min":           "$1.min()",
	"sum":           "$1.sum()",
	"keys":          "$1.map(k, k)",
	"not_null":      "($1 != null ? $1 : $2)",
	"equal_fold":    "(string($1).lowerAscii() == string($2).lowerAscii())",
	"trim_prefix":   "(string($1).startsWith($2) ? string($1).substring(size($2)) : string($1))",
	"add":           "($1 + $2)",
	"subtract":      "($1 - $2)",
	"multiply":      "($1 * $2)",
	"divide":        "(double($1) / double($2))",
	"modulo":        "($1 % $2)",
	"x509_decode":   "x509.decode($1)",
}

// recipes are the manual recipes for functions without a counterpart.
var recipes = map[string]string{
	"lookup":            "index the map or list directly: MAP[KEY] or LIST[INDEX]",
	"items":             "CEL has no two-variable comprehension here: build the list with MAP.map(k, {\"key\": k, \"value\": MAP[k]})",
	"label_match":       "compare the labels: SELECTOR.all(k, k in LABELS && LABELS[k] == SELECTOR[k])",
	"pattern_match":     "translate the wildcard to a regular expression and use STRING.matches(REGEX)",
	"regex_replace_all": "use regex.replace(STRING, REGEX, REPLACEMENT)",
	"semver_compare":    "use semver(A).compareTo(semver(B)) (Kubernetes' semver library)",
	"contains":          "for a string use STRING.contains(SUB), for a list use ELEMENT in LIST",
	"object_from_lists": "use transform.listObjToMap(KEYS, VALUES, \"key\", \"value\") or build the map literally",
	"time_since":        "use time.now() - timestamp(START) (a duration)",
	"time_add":          "use timestamp(T) + duration(D)",
	"path_canonicalize": "normalise the path with STRING.replace and STRING.split",
	"to_boolean":        "compare the string: STRING.lowerAscii() == \"true\"",
	"merge":             "CEL cannot merge maps: build the result map literally",
	"round":             "use math.round(VALUE, DIGITS)",
}

func (t *translation) function(node gojmespath.ASTNode, sc *scope) (string, error) {
	name, _ := node.Value.(string)
	var args []string
	for _, c := range node.Children {
		a, err := t.node(c, sc)
		if err != nil {
			return "", err
		}
		args = append(args, a)
	}
	if name == "trim" && (len(node.Children) < 2 || !isWhitespaceLiteral(node.Children[1])) {
		return "", refuse("use regex.replace(STRING, \"^[CHARS]+|[CHARS]+$\", \"\")", "trim with a cutset other than whitespace has no CEL counterpart")
	}
	tmpl, ok := functions[name]
	if !ok {
		recipe := recipes[name]
		return "", refuse(recipe, "the JMESPath function %s has no CEL counterpart", name)
	}
	out := tmpl
	for i := len(args); i >= 1; i-- {
		out = strings.ReplaceAll(out, "$"+strconv.Itoa(i), args[i-1])
	}
	if strings.Contains(out, "$") && regexp.MustCompile(`\$[0-9]`).MatchString(out) {
		return "", refuse("", "the JMESPath function %s is called with too few arguments", name)
	}
	return out, nil
}

func isWhitespaceLiteral(n gojmespath.ASTNode) bool {
	s, ok := n.Value.(string)
	return ok && n.NodeType == gojmespath.ASTLiteral && strings.Trim(s, " \t\n") == ""
}
