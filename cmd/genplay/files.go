package main

import (
	"io/fs"
	"os"
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
	for i := range res.Diagnostics {
		res.Diagnostics[i].File = show(res.Diagnostics[i].File)
	}
	res.Skipped = strings.ReplaceAll(res.Skipped, fsPath, name)
}
