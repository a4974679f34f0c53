package semver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Version is a parsed semantic version.
type Version struct {
	Major, Minor, Patch uint64
	Pre                 []string
	Build               []string
}

// Parse parses a strict semantic version such as "1.2.3-rc.1+build".
func Parse(s string) (Version, error) {
	var v Version
	if s == "" {
		return v, errors.New("version string empty")
	}
	main := s
	if i := strings.IndexByte(main, '+'); i >= 0 {
		build := main[i+1:]
		main = main[:i]
		for _, b := range strings.Split(build, ".") {
			if b == "" || !alnumHyphen(b) {
				return v, fmt.Errorf("invalid build identifier %q", b)
			}
			v.Build = append(v.Build, b)
		}
	}
	if i := strings.IndexByte(main, '-'); i >= 0 {
		pre := main[i+1:]
		main = main[:i]
		for _, p := range strings.Split(pre, ".") {
			if p == "" || !alnumHyphen(p) {
				return v, fmt.Errorf("invalid prerelease identifier %q", p)
			}
			if numeric(p) && len(p) > 1 && p[0] == '0' {
				return v, fmt.Errorf("numeric prerelease identifier %q must not have leading zeroes", p)
			}
			v.Pre = append(v.Pre, p)
		}
	}
	parts := strings.Split(main, ".")
	if len(parts) != 3 {
		return v, errors.New("no major, minor and patch version found")
	}
	nums := make([]uint64, 3)
	for i, p := range parts {
		if !numeric(p) {
			return v, fmt.Errorf("invalid character(s) found in version part %q", p)
		}
		if len(p) > 1 && p[0] == '0' {
			return v, fmt.Errorf("version part %q must not have leading zeroes", p)
		}
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return v, err
		}
		nums[i] = n
	}
	v.Major, v.Minor, v.Patch = nums[0], nums[1], nums[2]
	return v, nil
}

func numeric(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func alnumHyphen(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false
		}
	}
	return true
}

// Compare returns -1, 0 or +1; build metadata is ignored.
func (v Version) Compare(o Version) int {
	for _, d := range [][2]uint64{{v.Major, o.Major}, {v.Minor, o.Minor}, {v.Patch, o.Patch}} {
		if d[0] != d[1] {
			if d[0] < d[1] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(v.Pre) == 0 && len(o.Pre) == 0:
		return 0
	case len(v.Pre) == 0:
		return 1
	case len(o.Pre) == 0:
		return -1
	}
	for i := 0; i < len(v.Pre) && i < len(o.Pre); i++ {
		if c := comparePre(v.Pre[i], o.Pre[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(v.Pre) < len(o.Pre):
		return -1
	case len(v.Pre) > len(o.Pre):
		return 1
	}
	return 0
}

func comparePre(a, b string) int {
	an, bn := numeric(a), numeric(b)
	switch {
	case an && bn:
		x, _ := strconv.ParseUint(a, 10, 64)
		y, _ := strconv.ParseUint(b, 10, 64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case an:
		return -1
	case bn:
		return 1
	}
	return strings.Compare(a, b)
}

// Range reports whether a version is in a range.
type Range func(Version) bool

// ParseRange parses a range: comparators separated by spaces are ANDed, groups
// separated by "||" are ORed. Comparators: >, >=, <, <=, =, ==, !, != or none
// (equal). Minor and patch may be a wildcard x, X or *.
func ParseRange(s string) (Range, error) {
	var ors []Range
	for _, group := range strings.Split(s, "||") {
		fields := strings.Fields(group)
		// Join an operator written apart from its version: "> 1.0.0".
		var parts []string
		for i := 0; i < len(fields); i++ {
			f := fields[i]
			if isOperator(f) && i+1 < len(fields) {
				f += fields[i+1]
				i++
			}
			parts = append(parts, f)
		}
		if len(parts) == 0 {
			return nil, fmt.Errorf("could not parse range %q", s)
		}
		var ands []Range
		for _, p := range parts {
			r, err := parseComparator(p)
			if err != nil {
				return nil, err
			}
			ands = append(ands, r)
		}
		ors = append(ors, func(v Version) bool {
			for _, r := range ands {
				if !r(v) {
					return false
				}
			}
			return true
		})
	}
	return func(v Version) bool {
		for _, r := range ors {
			if r(v) {
				return true
			}
		}
		return false
	}, nil
}

func isOperator(s string) bool {
	switch s {
	case ">", ">=", "<", "<=", "=", "==", "!", "!=":
		return true
	}
	return false
}

func parseComparator(s string) (Range, error) {
	op := ""
	for _, o := range []string{">=", "<=", "!=", "==", ">", "<", "=", "!"} {
		if strings.HasPrefix(s, o) {
			op = o
			break
		}
	}
	vs := s[len(op):]
	parts := strings.SplitN(vs, ".", 3)
	wild := -1
	for i, p := range parts {
		if p == "x" || p == "X" || p == "*" {
			wild = i
			break
		}
	}
	if wild >= 0 {
		if wild == 0 {
			return nil, fmt.Errorf("could not parse comparator %q: major version cannot be a wildcard", s)
		}
		lo := make([]string, 3)
		hi := make([]string, 3)
		for i := range 3 {
			lo[i], hi[i] = "0", "0"
			if i < wild {
				lo[i], hi[i] = parts[i], parts[i]
			}
		}
		n, err := strconv.ParseUint(parts[wild-1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("could not parse comparator %q: %w", s, err)
		}
		hi[wild-1] = strconv.FormatUint(n+1, 10)
		low, err := Parse(strings.Join(lo, "."))
		if err != nil {
			return nil, err
		}
		high, err := Parse(strings.Join(hi, "."))
		if err != nil {
			return nil, err
		}
		switch op {
		case ">":
			return func(v Version) bool { return v.Compare(high) >= 0 }, nil
		case ">=":
			return func(v Version) bool { return v.Compare(low) >= 0 }, nil
		case "<":
			return func(v Version) bool { return v.Compare(low) < 0 }, nil
		case "<=":
			return func(v Version) bool { return v.Compare(high) < 0 }, nil
		case "!", "!=":
			return func(v Version) bool { return v.Compare(low) < 0 || v.Compare(high) >= 0 }, nil
		default:
			return func(v Version) bool { return v.Compare(low) >= 0 && v.Compare(high) < 0 }, nil
		}
	}
	ref, err := Parse(vs)
	if err != nil {
		return nil, fmt.Errorf("could not parse version %q in %q: %w", vs, s, err)
	}
	switch op {
	case ">":
		return func(v Version) bool { return v.Compare(ref) > 0 }, nil
	case ">=":
		return func(v Version) bool { return v.Compare(ref) >= 0 }, nil
	case "<":
		return func(v Version) bool { return v.Compare(ref) < 0 }, nil
	case "<=":
		return func(v Version) bool { return v.Compare(ref) <= 0 }, nil
	case "!", "!=":
		return func(v Version) bool { return v.Compare(ref) != 0 }, nil
	default:
		return func(v Version) bool { return v.Compare(ref) == 0 }, nil
	}
}
