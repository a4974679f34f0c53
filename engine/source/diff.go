package source

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// diffContext is the number of unchanged lines around each change.
const diffContext = 3

// maxDiffCells bounds the work of the line matcher; beyond it the changed
// middle is shown as removed and re-added.
const maxDiffCells = 4 << 20

// noNewline follows a line that has no end, the last line of a text.
const noNewline = "\n\\ No newline at end of file\n"

// Diff returns a unified diff of two texts, line by line, or "" when they
// are equal.
//
// The timeline shows a diff for every change, so Diff is written to
// allocate little: lines are byte offsets into a and b, the edit script is
// pointer-free and the scratch space lives on the stack for small edits;
// the result is built in one buffer of its exact size.
func Diff(aName, bName string, a, b []byte) string {
	d, _ := diff(aName, bName, a, b)
	return d
}

// diff returns Diff's result and the size it computed for it, which the
// tests check.
func diff(aName, bName string, a, b []byte) (d string, size int) {
	if string(a) == string(b) {
		return "", 0
	}
	// A created or deleted object: one hunk of the whole other text.
	if len(a) == 0 {
		return diffOneSide(aName, bName, '+', b)
	}
	if len(b) == 0 {
		return diffOneSide(aName, bName, '-', a)
	}
	return diffLines(aName, bName, a, b)
}

// diffOneSide returns the diff of an empty text and text: every line added
// (kind '+') or removed ('-').
func diffOneSide(aName, bName string, kind byte, text []byte) (string, int) {
	n := bytes.Count(text, []byte{'\n'})
	open := text[len(text)-1] != '\n'
	if open {
		n++
	}
	aStart, aLen, bStart, bLen := 0, 0, 1, n // lines added
	if kind == '-' {
		aStart, aLen, bStart, bLen = 1, n, 0, 0
	}
	size := headerSize(aName, bName) + hunkHeaderSize(aStart, aLen, bStart, bLen) + n + len(text)
	if open {
		size += len(noNewline)
	}
	var out strings.Builder
	out.Grow(size)
	writeHeader(&out, aName, bName)
	writeHunkHeader(&out, aStart, aLen, bStart, bLen)
	for p := 0; p < len(text); {
		e := lineEnd(text, p)
		out.WriteByte(kind)
		out.Write(text[p:e])
		p = e
	}
	if open {
		out.WriteString(noNewline)
	}
	return out.String(), size
}

// op is one line of the edit script: ' ', '-' or '+', with the line numbers
// (1-based) in a and b reached with it; an unchanged or removed line is
// line ai of a, an added line is line bi of b.
type op struct {
	kind   byte
	ai, bi int
}

// diffLines computes an edit script from a longest common subsequence of
// lines, after trimming the common prefix and suffix, and writes its hunks.
//
// Only the changed middle and the context lines around it are indexed and
// scripted: the middle starts and ends with a change (its first lines
// differ, and so do its last), so a hunk reaches at most diffContext lines
// into the common prefix or suffix, and the hunks of this window are those of
// the whole script.
func diffLines(aName, bName string, a, b []byte) (string, int) {
	// Common prefix and suffix, whole lines; the suffix does not reach
	// into the prefix of either text.
	pa, pb, pre := 0, 0, 0
	for pa < len(a) && pb < len(b) {
		ea, eb := lineEnd(a, pa), lineEnd(b, pb)
		if !bytes.Equal(a[pa:ea], b[pb:eb]) {
			break
		}
		pa, pb, pre = ea, eb, pre+1
	}
	ea, eb, suf := len(a), len(b), 0
	for ea > pa && eb > pb {
		sa, sb := lineStart(a, pa, ea), lineStart(b, pb, eb)
		if !bytes.Equal(a[sa:ea], b[sb:eb]) {
			break
		}
		ea, eb, suf = sa, sb, suf+1
	}
	// The context lines before and after the middle, taken from a.
	before, after := min(diffContext, pre), min(diffContext, suf)
	ca, cz := pa, ea
	for range before {
		ca = lineStart(a, 0, ca)
	}
	for range after {
		cz = lineEnd(a, cz)
	}

	// Line starts: a's window [ca, cz) then b's middle [pb, eb), each
	// closed by its end offset. Line k of the window is line
	// first+k of a; line k of b's middle is line pre+1+k of b.
	var offBuf [96]int
	off := appendLineStarts(offBuf[:0], a, ca, cz)
	aLines := len(off) - 1
	off = appendLineStarts(off, b, pb, eb)
	aOff, bOff := off[:aLines+1], off[aLines+1:]
	first := pre - before + 1
	n, m := aLines-before-after, len(bOff)-1
	aLine := func(k int) []byte { return a[aOff[k]:aOff[k+1]] }
	bLine := func(k int) []byte { return b[bOff[k]:bOff[k+1]] }

	var opBuf [64]op
	ops := opBuf[:0]
	for i := first; i <= pre; i++ {
		ops = append(ops, op{' ', i, i})
	}
	ai, bi := pre, pre
	emit := func(kind byte) {
		switch kind {
		case ' ':
			ai++
			bi++
		case '-':
			ai++
		case '+':
			bi++
		}
		ops = append(ops, op{kind, ai, bi})
	}
	if n*m <= maxDiffCells {
		// The matched length is at most min(n, m), at most 2048 here, so
		// the table needs one or two bytes a cell; the common small edit
		// has its table on the stack.
		am, cells := aOff[before:before+n+1], (n+1)*(m+1)
		if min(n, m) <= math.MaxUint8 {
			var cellBuf [1024]uint8
			var lcs []uint8
			if cells <= len(cellBuf) {
				lcs = cellBuf[:cells]
			} else {
				lcs = make([]uint8, cells)
			}
			ops = matchLines(ops, lcs, a, b, am, bOff, pre)
		} else {
			ops = matchLines(ops, make([]uint16, cells), a, b, am, bOff, pre)
		}
		ai, bi = pre+n, pre+m
	} else {
		for range n {
			emit('-')
		}
		for range m {
			emit('+')
		}
	}
	for range after {
		emit(' ')
	}

	// line returns the text of an op.
	line := func(o op) []byte {
		if o.kind == '+' {
			return bLine(o.bi - pre - 1)
		}
		return aLine(o.ai - first)
	}
	var hunkBuf [8][2]int
	hs := hunks(hunkBuf[:0], ops)
	size := headerSize(aName, bName)
	for _, h := range hs {
		size += hunkHeaderSize(hunkRanges(ops[h[0]:h[1]]))
		for _, o := range ops[h[0]:h[1]] {
			l := line(o)
			size += 1 + len(l)
			if l[len(l)-1] != '\n' {
				size += len(noNewline)
			}
		}
	}
	var out strings.Builder
	out.Grow(size)
	writeHeader(&out, aName, bName)
	for _, h := range hs {
		aStart, aLen, bStart, bLen := hunkRanges(ops[h[0]:h[1]])
		writeHunkHeader(&out, aStart, aLen, bStart, bLen)
		for _, o := range ops[h[0]:h[1]] {
			l := line(o)
			out.WriteByte(o.kind)
			out.Write(l)
			if l[len(l)-1] != '\n' {
				out.WriteString(noNewline)
			}
		}
	}
	return out.String(), size
}

// matchLines appends the edit script of the lines of a at offsets am and of
// b at offsets bm, which follow pre common lines, from a longest common
// subsequence; lcs is a zeroed table of (len(am))*(len(bm)) cells.
func matchLines[T uint8 | uint16](ops []op, lcs []T, a, b []byte, am, bm []int, pre int) []op {
	n, m := len(am)-1, len(bm)-1
	equal := func(i, j int) bool { return bytes.Equal(a[am[i]:am[i+1]], b[bm[j]:bm[j+1]]) }
	// lcs[i*w+j] is the LCS length of the lines i… of a and j… of b.
	w := m + 1
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if equal(i, j) {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && equal(i, j):
			i++
			j++
			ops = append(ops, op{' ', pre + i, pre + j})
		case j < m && (i == n || lcs[i*w+j+1] > lcs[(i+1)*w+j]):
			j++
			ops = append(ops, op{'+', pre + i, pre + j})
		default:
			i++
			ops = append(ops, op{'-', pre + i, pre + j})
		}
	}
	return ops
}

// lineEnd returns the end of the line of t that starts at p, after its
// "\n" if it has one.
func lineEnd(t []byte, p int) int {
	if i := bytes.IndexByte(t[p:], '\n'); i >= 0 {
		return p + i + 1
	}
	return len(t)
}

// lineStart returns the start of the line of t that ends at end (> lo),
// where lo is a line start.
func lineStart(t []byte, lo, end int) int {
	return lo + bytes.LastIndexByte(t[lo:end-1], '\n') + 1
}

// appendLineStarts appends the start of each line of t[lo:hi], where lo is
// a line start and hi a line end, then hi.
func appendLineStarts(dst []int, t []byte, lo, hi int) []int {
	for p := lo; p < hi; p = lineEnd(t, p) {
		dst = append(dst, p)
	}
	return append(dst, hi)
}

// hunks appends to dst the groups of changes with their context, as
// [start, end) ranges of ops.
func hunks(dst [][2]int, ops []op) [][2]int {
	out := dst
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

// hunkRanges returns the first line and the number of lines of a hunk in
// a and in b.
func hunkRanges(ops []op) (aStart, aLen, bStart, bLen int) {
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
	return aStart, aLen, bStart, bLen
}

func headerSize(aName, bName string) int {
	return len("--- \n+++ \n") + len(aName) + len(bName)
}

func writeHeader(out *strings.Builder, aName, bName string) {
	out.WriteString("--- ")
	out.WriteString(aName)
	out.WriteString("\n+++ ")
	out.WriteString(bName)
	out.WriteByte('\n')
}

// hunkHeaderSize is the length of "@@ -aStart,aLen +bStart,bLen @@\n".
func hunkHeaderSize(aStart, aLen, bStart, bLen int) int {
	return len("@@ - + @@\n") + rangeSize(aStart, aLen) + rangeSize(bStart, bLen)
}

func writeHunkHeader(out *strings.Builder, aStart, aLen, bStart, bLen int) {
	out.WriteString("@@ -")
	writeRange(out, aStart, aLen)
	out.WriteString(" +")
	writeRange(out, bStart, bLen)
	out.WriteString(" @@\n")
}

// rangeSize is the length of a hunk range: "start" for one line, else
// "start,n".
func rangeSize(start, n int) int {
	if n == 1 {
		return intSize(start)
	}
	return intSize(start) + 1 + intSize(n)
}

func writeRange(out *strings.Builder, start, n int) {
	var buf [48]byte
	b := strconv.AppendInt(buf[:0], int64(start), 10)
	if n != 1 {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	out.Write(b)
}

// intSize is the number of bytes of n in decimal.
func intSize(n int) int {
	var buf [24]byte
	return len(strconv.AppendInt(buf[:0], int64(n), 10))
}
