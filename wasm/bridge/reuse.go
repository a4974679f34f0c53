package bridge

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"sync"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// Reuse is what an answer of RunSince leaves out: the first Steps steps,
// and Initial when set, are those of the answer named Base (the loader
// holds it). The loader puts them back, so genplay.run resolves to the
// whole Result.
type Reuse struct {
	Base    string `json:"base"`
	Steps   int    `json:"steps"`
	Initial bool   `json:"initial,omitempty"`
}

// fingerprint is what the bridge remembers of an answer: a hash of the
// JSON of its initial objects and of each step. Two equal hashes are taken
// for equal JSON (FNV-1a, 128 bits).
type fingerprint struct {
	initial [16]byte
	steps   [][16]byte
}

// remembered keeps the fingerprints of the last answers by the loader's
// token, oldest first; at most keepAnswers.
var remembered struct {
	sync.Mutex
	tokens []string
	byTok  map[string]fingerprint
}

// keepAnswers is how many answers the bridge remembers: the loader asks
// for a base among its latest (one per set of options: the page's run and
// the outcome matrix's four).
const keepAnswers = 8

func remember(token string, fp fingerprint) {
	remembered.Lock()
	defer remembered.Unlock()
	if remembered.byTok == nil {
		remembered.byTok = map[string]fingerprint{}
	}
	if _, ok := remembered.byTok[token]; !ok {
		remembered.tokens = append(remembered.tokens, token)
	}
	remembered.byTok[token] = fp
	for len(remembered.tokens) > keepAnswers {
		delete(remembered.byTok, remembered.tokens[0])
		remembered.tokens = remembered.tokens[1:]
	}
}

func recall(token string) (fingerprint, bool) {
	remembered.Lock()
	defer remembered.Unlock()
	fp, ok := remembered.byTok[token]
	return fp, ok
}

func hash(b []byte) [16]byte {
	h := fnv.New128a()
	_, _ = h.Write(b)
	var out [16]byte
	h.Sum(out[:0])
	return out
}

// encodeSince is encode, leaving out what the answer base (when the
// bridge remembers it) has the same: its leading steps and its initial
// objects, said in the answer's "reuse". token names this answer for a
// later call.
func encodeSince(r *timeline.Result, token, base string) []byte {
	if token == "" {
		return encode(r)
	}
	shell := *r
	shell.Initial, shell.Steps = []resource.Object{}, []timeline.Step{}
	head, err := json.Marshal(&shell)
	if err != nil {
		return encode(r) // encode reports it
	}
	initial, err := json.Marshal(r.Initial)
	if err != nil {
		return encode(r)
	}
	steps := make([][]byte, len(r.Steps))
	fp := fingerprint{initial: hash(initial), steps: make([][16]byte, len(r.Steps))}
	for i := range r.Steps {
		if steps[i], err = json.Marshal(&r.Steps[i]); err != nil {
			return encode(r)
		}
		fp.steps[i] = hash(steps[i])
	}
	remember(token, fp)
	reuse := Reuse{Base: base}
	if old, ok := recall(base); ok && base != token {
		reuse.Initial = old.initial == fp.initial
		for reuse.Steps < min(len(old.steps), len(fp.steps)) && old.steps[reuse.Steps] == fp.steps[reuse.Steps] {
			reuse.Steps++
		}
	}
	// The shell's "initial":[] and "steps":[] are its first such keys: the
	// format and the test name come before them, as strings, whose quotes
	// are escaped.
	var out bytes.Buffer
	out.Grow(len(head) + len(initial) + 64 + len(steps)*1024)
	rest := head
	i := bytes.Index(rest, []byte(`"initial":[]`))
	out.Write(rest[:i])
	out.WriteString(`"initial":`)
	if reuse.Initial {
		out.WriteString("[]")
	} else {
		out.Write(initial)
	}
	rest = rest[i+len(`"initial":[]`):]
	i = bytes.Index(rest, []byte(`"steps":[]`))
	out.Write(rest[:i])
	out.WriteString(`"steps":[`)
	for j, s := range steps[reuse.Steps:] {
		if j > 0 {
			out.WriteByte(',')
		}
		out.Write(s)
	}
	out.WriteByte(']')
	rest = rest[i+len(`"steps":[]`):]
	if reuse.Base != "" && (reuse.Steps > 0 || reuse.Initial) {
		tail, _ := json.Marshal(reuse)
		out.WriteString(`,"reuse":`)
		out.Write(tail)
	}
	out.Write(rest)
	return out.Bytes()
}
