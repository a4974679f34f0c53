package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/genplay/genplay/engine/timeline"
)

// rootFS is the file system genplay run and genplay test read tests from:
// rooted at the volume root, so every relative path a test names resolves
// (tests reach step templates with ../ paths), and the path of abs in it.
func rootFS(abs string) (fsys fs.FS, fsPath string) {
	vol := filepath.VolumeName(abs)
	fsPath = strings.TrimPrefix(filepath.ToSlash(strings.TrimPrefix(abs, vol)), "/")
	return boundedFS{os.DirFS(vol + string(filepath.Separator))}, fsPath
}

// showFiles rewrites the file names of a run of the test at fsPath (in
// rootFS) as the user reads them: the test as they named it, other files
// relative to the working directory.
func showFiles(res *timeline.Result, fsPath, name string) {
	cwd, _ := os.Getwd()
	show := func(file string) string {
		if file == fsPath {
			return name
		}
		abs := string(filepath.Separator) + filepath.FromSlash(file)
		if rel, err := filepath.Rel(cwd, abs); err == nil && file != "" {
			return filepath.ToSlash(rel)
		}
		return file
	}
	// Messages name files by their path in rootFS (read tmp/t/x.yaml):
	// show the test's folder as the user named it.
	dir, shown := path.Dir(fsPath)+"/", filepath.ToSlash(filepath.Dir(name))+"/"
	if shown == "./" {
		shown = ""
	}
	for i := range res.Diagnostics {
		res.Diagnostics[i].File = show(res.Diagnostics[i].File)
		if dir != "./" {
			res.Diagnostics[i].Message = strings.ReplaceAll(res.Diagnostics[i].Message, dir, shown)
		}
	}
	res.Skipped = strings.ReplaceAll(res.Skipped, fsPath, name)
}
