package clitest

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

// Files reads the files a test names, relative to its folder Dir in FS.
// FS bounds each file (the CLI's reads only regular files of at most 2
// MiB); Files bounds their total, since a test may name one large file a
// thousand times.
type Files struct {
	FS  fs.FS
	Dir string
	// read counts the bytes read so far (nil: from zero, for one call).
	read *int
}

// MaxTotalBytes bounds what the files one test (or one --install) names
// add up to: four scenarios' worth (engine.MaxInputBytes each).
const MaxTotalBytes = 4 * source.MaxInputSize

// tooMuch is the error of files that add up to more than MaxTotalBytes.
func tooMuch(p string) error {
	return fmt.Errorf("%s: the files this test names add up to more than %d bytes, the most genplay reads for one test", p, MaxTotalBytes)
}

// Objects reads every object of a file, or of the YAML files of a folder
// (not recursively): documents with an apiVersion and a kind. A List
// document is an error.
func (c Files) Objects(p string) ([]scenario.Resource, error) {
	if strings.Contains(p, "://") {
		return nil, fmt.Errorf("%s: URLs are not read; put the file next to the test", p)
	}
	full := path.Join(c.Dir, p)
	if !fs.ValidPath(full) {
		return nil, fmt.Errorf("%s: outside the folder tests are read from", p)
	}
	info, err := fs.Stat(c.FS, full)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	files := []string{full}
	if info.IsDir() {
		files = nil
		entries, err := fs.ReadDir(c.FS, full)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if ext := path.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml") {
				files = append(files, path.Join(full, e.Name()))
			}
		}
	}
	if c.read == nil {
		c.read = new(int)
	}
	var out []scenario.Resource
	for _, fp := range files {
		if info, err := fs.Stat(c.FS, fp); err == nil && *c.read+int(info.Size()) > MaxTotalBytes {
			return nil, tooMuch(p)
		}
		data, err := fs.ReadFile(c.FS, fp)
		if err != nil {
			return nil, err
		}
		if *c.read += len(data); *c.read > MaxTotalBytes {
			return nil, tooMuch(p)
		}
		docs, diags := source.Parse(fp, data)
		if diags.HasErrors() {
			return nil, fmt.Errorf("%s: %s", p, source.FirstLine(diags.Error()))
		}
		for _, d := range docs {
			m, ok := d.Value.(map[string]any)
			if !ok {
				continue
			}
			obj := resource.Object(m)
			if obj.Kind() == "List" {
				return nil, fmt.Errorf("%s: List documents are not read", p)
			}
			if obj.Kind() == "" || obj.APIVersion() == "" {
				continue
			}
			out = append(out, scenario.Resource{Doc: d, Object: obj})
		}
	}
	return out, nil
}

// objectsOf reads the objects of every file of names, in order, skipping
// entries that are not file names.
func (c Files) objectsOf(names []string) ([]scenario.Resource, error) {
	var out []scenario.Resource
	for _, p := range names {
		if p == "" {
			continue
		}
		objs, err := c.Objects(p)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}
