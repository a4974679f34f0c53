package shell

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Scratch is a test's scratch folder: the files its scripts write, read
// and remove, kept in memory for the whole test (a file one step writes,
// the next reads). It is the scripts' working directory, the test's folder:
// a file the scratch does not hold is read from the test's folder (read
// only), so kubectl -f and cat see the test's own files. Nothing is ever
// written to, or removed from, the real file system; an absolute path names
// a file of the scratch only (/tmp/x is the scratch's), never the
// machine's. Size is bounded (MaxScratchBytes, MaxScratchFiles).
type Scratch struct {
	// base is the test's folder in files (read only); files nil: none.
	files fs.FS
	base  string
	// written are the files written, by clean path ("a/b" relative to the
	// test's folder, "/x" absolute); dirs the folders made; removed the
	// paths of the test's folder a script removed.
	written map[string][]byte
	dirs    map[string]bool
	removed map[string]bool
	bytes   int
	// kubeconfigs counts the kubeconfigs chainsaw wrote for the test's
	// operations (their names).
	kubeconfigs int
	// keys counts the keys openssl made in the test (their seeds).
	keys int
}

// Bounds of a scratch folder.
const (
	MaxScratchBytes = 16 << 20
	MaxScratchFiles = 1000
)

// NewScratch is the scratch folder of a test whose file is file in files
// (nil: a test with no folder; its scripts read only what they write).
func NewScratch(files fs.FS, file string) *Scratch {
	return &Scratch{files: files, base: path.Dir(file), written: map[string][]byte{}, dirs: map[string]bool{}, removed: map[string]bool{}}
}

// The utilities' errors, worded as sh prints them (strerror), capitals
// and all.
var (
	//lint:ignore ST1005 worded as sh prints it
	errNotExist = errors.New("No such file or directory")
	//lint:ignore ST1005 worded as sh prints it
	errIsDir = errors.New("Is a directory")
	//lint:ignore ST1005 worded as sh prints it
	errFull = errors.New("No space left on device (genplay's scratch folder holds at most 16 MiB in 1000 files)")
)

// clean is p as a key: relative to the test's folder, or absolute.
func (s *Scratch) clean(p string) string { return path.Clean(p) }

// inBase is where a relative path is in the test's file system, if it is.
func (s *Scratch) inBase(key string) (string, bool) {
	if s.files == nil || path.IsAbs(key) {
		return "", false
	}
	full := path.Join(s.base, key)
	return full, fs.ValidPath(full)
}

// Read returns a file's content.
func (s *Scratch) Read(p string) ([]byte, error) {
	key := s.clean(p)
	if b, ok := s.written[key]; ok {
		return b, nil
	}
	if s.dirs[key] {
		return nil, errIsDir
	}
	if s.gone(key) {
		return nil, errNotExist
	}
	if full, ok := s.inBase(key); ok {
		info, err := fs.Stat(s.files, full)
		if err != nil {
			return nil, errNotExist
		}
		if info.IsDir() {
			return nil, errIsDir
		}
		return fs.ReadFile(s.files, full)
	}
	return nil, errNotExist
}

// gone reports whether a script removed key or a folder above it.
func (s *Scratch) gone(key string) bool {
	for k := key; k != "." && k != "/"; k = path.Dir(k) {
		if s.removed[k] {
			return true
		}
	}
	return false
}

// Stat says whether p exists, is a folder, and its size.
func (s *Scratch) Stat(p string) (exists, dir bool, size int) {
	key := s.clean(p)
	if key == "." || key == "/" {
		return true, true, 0
	}
	if b, ok := s.written[key]; ok {
		return true, false, len(b)
	}
	if s.dirs[key] {
		return true, true, 0
	}
	for k := range s.written {
		if strings.HasPrefix(k, key+"/") {
			return true, true, 0
		}
	}
	if s.gone(key) {
		return false, false, 0
	}
	if full, ok := s.inBase(key); ok {
		if info, err := fs.Stat(s.files, full); err == nil {
			return true, info.IsDir(), int(info.Size())
		}
	}
	return false, false, 0
}

// parentExists reports whether the folder a new file goes in exists.
func (s *Scratch) parentExists(key string) bool {
	exists, dir, _ := s.Stat(path.Dir(key))
	return exists && dir
}

// Write writes (or, with appending, appends to) a file.
func (s *Scratch) Write(p string, data []byte, appending bool) error {
	key := s.clean(p)
	if exists, dir, _ := s.Stat(key); exists && dir {
		return errIsDir
	}
	if !s.parentExists(key) {
		return errNotExist
	}
	var old []byte
	if appending {
		old, _ = s.Read(key)
	}
	prev := len(s.written[key])
	_, had := s.written[key]
	if !had && len(s.written) >= MaxScratchFiles || s.bytes-prev+len(old)+len(data) > MaxScratchBytes {
		return errFull
	}
	s.written[key] = append(append([]byte{}, old...), data...)
	s.bytes += len(s.written[key]) - prev
	delete(s.removed, key)
	return nil
}

// Mkdir makes a folder; with parents, its missing parents too, and an
// existing folder is no error.
func (s *Scratch) Mkdir(p string, parents bool) error {
	key := s.clean(p)
	if exists, dir, _ := s.Stat(key); exists {
		if dir && parents {
			return nil
		}
		//lint:ignore ST1005 worded as sh prints it
		return errors.New("File exists")
	}
	if !s.parentExists(key) {
		if !parents {
			return errNotExist
		}
		if err := s.Mkdir(path.Dir(key), true); err != nil {
			return err
		}
	}
	if len(s.dirs) >= MaxScratchFiles {
		return errFull
	}
	s.dirs[key] = true
	delete(s.removed, key)
	return nil
}

// Remove removes a file or, with recursive, a folder and what it holds.
func (s *Scratch) Remove(p string, recursive bool) error {
	key := s.clean(p)
	exists, dir, _ := s.Stat(key)
	if !exists {
		return errNotExist
	}
	if key == "." || key == "/" {
		return errors.New("refusing to remove '.' or '/'")
	}
	if dir && !recursive {
		return errIsDir
	}
	if b, ok := s.written[key]; ok {
		s.bytes -= len(b)
		delete(s.written, key)
	}
	for k, b := range s.written {
		if strings.HasPrefix(k, key+"/") {
			s.bytes -= len(b)
			delete(s.written, k)
		}
	}
	for k := range s.dirs {
		if k == key || strings.HasPrefix(k, key+"/") {
			delete(s.dirs, k)
		}
	}
	if _, ok := s.inBase(key); ok {
		s.removed[key] = true
	}
	return nil
}

// List names what a folder holds, sorted.
func (s *Scratch) List(p string) ([]string, error) {
	key := s.clean(p)
	exists, dir, _ := s.Stat(key)
	if !exists {
		return nil, errNotExist
	}
	if !dir {
		return []string{path.Base(key)}, nil
	}
	names := map[string]bool{}
	child := func(k string) {
		var rest string
		switch {
		case key == ".":
			rest = k
		case strings.HasPrefix(k, key+"/"):
			rest = strings.TrimPrefix(k, key+"/")
		default:
			return
		}
		if !path.IsAbs(rest) {
			names[strings.SplitN(rest, "/", 2)[0]] = true
		}
	}
	for k := range s.written {
		child(k)
	}
	for k := range s.dirs {
		child(k)
	}
	if full, ok := s.inBase(key); ok {
		if entries, err := fs.ReadDir(s.files, full); err == nil {
			for _, e := range entries {
				k := path.Join(key, e.Name())
				if !s.gone(k) {
					names[e.Name()] = true
				}
			}
		}
	}
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}
