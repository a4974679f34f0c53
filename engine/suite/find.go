package suite

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/scenario"
)

// Root is a path `genplay test` was given.
type Root struct {
	// Name is the path as the user gave it, for messages.
	Name string
	// Path is where it is in the suite's file system.
	Path string
	// Display is how files under it are shown (relative to the working
	// directory).
	Display string
}

// display is how p, under the root, is shown.
func (root Root) display(p string) string {
	if p == root.Path {
		return root.Display
	}
	rel := strings.TrimPrefix(p, root.Path+"/")
	if root.Path == "." {
		rel = p
	}
	return path.Join(root.Display, rel)
}

// File is a test file of a suite.
type File struct {
	// Display is the file as the user should read it; Path is where it is
	// in the suite's file system.
	Display, Path string
	// CLI marks a Kyverno CLI test (kyverno-test.yaml).
	CLI bool
	// NoTest says why a folder that looks like a test is none: a
	// .kyverno-test folder with no kyverno-test.yaml (Path is the folder).
	NoTest string
}

// Kind is what Classify found a file to be.
type Kind string

const (
	KindNone     Kind = ""
	KindChainsaw Kind = "chainsaw"
	KindCLI      Kind = "cli"
)

var (
	chainsawTestDoc = regexp.MustCompile(`(?m)^apiVersion:\s*["']?chainsaw\.kyverno\.io/v1alpha1["']?\s*$`)
	kindTest        = regexp.MustCompile(`(?m)^kind:\s*["']?Test["']?\s*$`)
	cliTestDoc      = regexp.MustCompile(`(?m)^apiVersion:\s*["']?cli\.kyverno\.io/v1alpha1["']?\s*$`)
)

// Classify says whether the file at p in fsys is a chainsaw test, a Kyverno
// CLI test or neither. Without a chainsaw Configuration, any YAML file
// holding a chainsaw Test is one; with it, as in chainsaw, only the files
// its testFile names are.
func Classify(fsys fs.FS, p string, config *scenario.Configuration) (Kind, error) {
	base := path.Base(p)
	names := scenario.TestFileNames
	if config != nil {
		names = config.TestFileNames()
	}
	for _, n := range names {
		if base == n {
			return KindChainsaw, nil
		}
	}
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return KindNone, err
	}
	// Each pattern holds a literal that must appear: checking it first
	// spares the regular expressions most files (they were 4% of a run).
	if bytes.Contains(data, []byte("Test")) && kindTest.Match(data) {
		if config == nil && bytes.Contains(data, []byte("chainsaw.kyverno.io/v1alpha1")) && chainsawTestDoc.Match(data) {
			return KindChainsaw, nil
		}
		if bytes.Contains(data, []byte("cli.kyverno.io/v1alpha1")) && cliTestDoc.Match(data) {
			return KindCLI, nil
		}
	}
	return KindNone, nil
}

// Find expands roots into test files, sorted under each root, each once. A
// root that is a file must be a test; under a folder, every YAML file that
// is one (.git and node_modules are not entered).
func Find(fsys fs.FS, roots []Root, config *scenario.Configuration) ([]File, error) {
	var out []File
	seen := map[string]bool{}
	add := func(root Root, p string, kind Kind) {
		if seen[p] {
			return
		}
		seen[p] = true
		out = append(out, File{Display: root.display(p), Path: p, CLI: kind == KindCLI})
	}
	for _, root := range roots {
		info, err := fs.Stat(fsys, root.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", root.Name, pathless(err))
		}
		if !info.IsDir() {
			kind, err := Classify(fsys, root.Path, config)
			if err != nil {
				return nil, err
			}
			if kind == KindNone {
				return nil, fmt.Errorf("%s: neither a chainsaw Test nor a Kyverno CLI test (kyverno-test.yaml)", root.Name)
			}
			add(root, root.Path, kind)
			continue
		}
		found, err := yamlFiles(fsys, root.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", root.Name, err)
		}
		cliFolders := map[string]bool{}
		for _, p := range found {
			kind, err := Classify(fsys, p, config)
			if err != nil {
				return nil, err
			}
			if kind != KindNone {
				add(root, p, kind)
			}
			if kind == KindCLI {
				cliFolders[path.Dir(p)] = true
			}
		}
		for _, dir := range kyvernoTestFolders(found, root.Path) {
			if cliFolders[dir] || seen[dir] {
				continue
			}
			seen[dir] = true
			display := root.display(dir)
			var names []string
			for _, p := range found {
				if path.Dir(p) == dir {
					names = append(names, path.Base(p))
				}
			}
			out = append(out, File{Display: display, Path: dir, NoTest: fmt.Sprintf(
				"a .kyverno-test folder with no kyverno-test.yaml: it holds only resources (%s), so `kyverno test` finds no test to run here",
				strings.Join(names, ", "))})
		}
	}
	return out, nil
}

// kyvernoTestFolders are the folders named .kyverno-test that hold the
// files found (or are root), sorted.
func kyvernoTestFolders(found []string, root string) []string {
	dirs := map[string]bool{}
	if path.Base(root) == ".kyverno-test" {
		dirs[root] = true
	}
	for _, p := range found {
		if d := path.Dir(p); path.Base(d) == ".kyverno-test" {
			dirs[d] = true
		}
	}
	out := make([]string, 0, len(dirs))
	for d := range dirs {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// yamlFiles lists the YAML files under dir, sorted.
func yamlFiles(fsys fs.FS, dir string) ([]string, error) {
	var found []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && (d.Name() == ".git" || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if ext := path.Ext(p); ext == ".yaml" || ext == ".yml" {
			found = append(found, p)
		}
		return nil
	})
	sort.Strings(found)
	return found, err
}

// FindConfiguration reads chainsaw's Configuration: the file given (when
// not nil), else .chainsaw.yaml in the first of dirs that has one; nil when
// there is none. Its File is named as the user named the folder.
func FindConfiguration(fsys fs.FS, dirs []Root, given *Root) (*scenario.Configuration, error) {
	type candidate struct{ name, path string }
	var candidates []candidate
	if given != nil {
		candidates = []candidate{{given.Name, given.Path}}
	} else {
		for _, d := range dirs {
			if info, err := fs.Stat(fsys, d.Path); err == nil && info.IsDir() {
				for _, n := range scenario.ConfigFileNames {
					candidates = append(candidates, candidate{path.Join(d.Name, n), path.Join(d.Path, n)})
				}
			}
		}
	}
	for _, c := range candidates {
		data, err := fs.ReadFile(fsys, c.path)
		if errors.Is(err, fs.ErrNotExist) && given == nil {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("--config: %s: %w", c.name, pathless(err))
		}
		cfg, diags := scenario.ParseConfiguration(c.name, data)
		if diags.HasErrors() {
			return nil, fmt.Errorf("%s", diags.Errors()[0].Error())
		}
		return cfg, nil
	}
	return nil, nil
}

// pathless is err without the path of the file system it was read from
// (the message names the path as the user gave it).
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
