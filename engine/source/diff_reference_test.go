package source

import (
	"fmt"
	"strings"
)

// referenceDiff is the original implementation of Diff, kept verbatim (renamed)
// as the oracle for the differential tests: Diff must return the same bytes.
// It returns a unified diff of two texts, line by line, or "" when they
// are equal.
func referenceDiff(aName, bName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	al, bl := refSplitLines(string(a)), refSplitLines(string(b))
	ops := refDiffLines(al, bl)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	for _, h := range refHunks(ops) {
		refWriteHunk(&out, ops[h[0]:h[1]])
	}
	return out.String()
}

func refSplitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// refOp is one line of the edit script: ' ', '-' or '+', with its line numbers
// (1-based) in a and b.
type refOp struct {
	kind   byte
	line   string
	ai, bi int
}

// diffLines computes an edit script from a longest common subsequence of
// lines, after trimming the common prefix and suffix.
func refDiffLines(a, b []string) []refOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]refOp, 0, len(a)+len(b)-pre-suf) // the most ops there can be: one allocation
	for i := 0; i < pre; i++ {
		ops = append(ops, refOp{' ', a[i], i + 1, i + 1})
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(am), len(bm)
	ai, bi := pre, pre
	emit := func(kind byte, line string) {
		switch kind {
		case ' ':
			ai++
			bi++
		case '-':
			ai++
		case '+':
			bi++
		}
		ops = append(ops, refOp{kind, line, ai, bi})
	}
	if n*m <= maxDiffCells {
		// lcs[i][j] is the LCS length of am[i:] and bm[j:].
		lcs := make([][]int32, n+1)
		cells := make([]int32, (n+1)*(m+1)) // one backing array for all rows
		for i := range lcs {
			lcs[i] = cells[i*(m+1) : (i+1)*(m+1) : (i+1)*(m+1)]
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if am[i] == bm[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && am[i] == bm[j]:
				emit(' ', am[i])
				i++
				j++
			case j < m && (i == n || lcs[i][j+1] > lcs[i+1][j]):
				emit('+', bm[j])
				j++
			default:
				emit('-', am[i])
				i++
			}
		}
	} else {
		for _, l := range am {
			emit('-', l)
		}
		for _, l := range bm {
			emit('+', l)
		}
	}
	for i := len(a) - suf; i < len(a); i++ {
		emit(' ', a[i])
	}
	return ops
}

// hunks groups changes with their context into [start, end) ranges of ops.
func refHunks(ops []refOp) [][2]int {
	var out [][2]int
	for i := 0; i < len(ops); i++ {
		if ops[i].kind == ' ' {
			continue
		}
		start := max(0, i-diffContext)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			// Count unchanged lines ahead; a gap wider than twice the
			// context ends the hunk.
			k := end
			for k < len(ops) && ops[k].kind == ' ' {
				k++
			}
			if k == len(ops) || k-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = k
		}
		if len(out) > 0 && out[len(out)-1][1] >= start {
			out[len(out)-1][1] = end
		} else {
			out = append(out, [2]int{start, end})
		}
		i = end - 1
	}
	return out
}

func refWriteHunk(out *strings.Builder, ops []refOp) {
	aStart, bStart, aLen, bLen := 0, 0, 0, 0
	for _, o := range ops {
		switch o.kind {
		case ' ':
			aLen++
			bLen++
		case '-':
			aLen++
		case '+':
			bLen++
		}
	}
	// Line numbers of the first op in each file.
	first := ops[0]
	switch first.kind {
	case ' ':
		aStart, bStart = first.ai, first.bi
	case '-':
		aStart, bStart = first.ai, first.bi+1
	case '+':
		aStart, bStart = first.ai+1, first.bi
	}
	if aLen == 0 {
		aStart--
	}
	if bLen == 0 {
		bStart--
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", refHunkRange(aStart, aLen), refHunkRange(bStart, bLen))
	for _, o := range ops {
		out.WriteByte(o.kind)
		out.WriteString(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func refHunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
