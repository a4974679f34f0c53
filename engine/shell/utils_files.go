package shell

import (
	"bytes"
	"fmt"
	"path"
	"strings"
)

// The utilities that read and write the scratch folder's files: cat, rm,
// mkdir, touch, cp, mv, ls and tee (registered in utils.go).

func utilCat(r *runner, args []string, stdin string) (string, string, int) {
	return r.inputs("cat", args, stdin)
}

func utilRm(r *runner, args []string, _ string) (string, string, int) {
	opts, files, _ := splitFlags("rm", args, "fFrRv", "")
	force, recursive := opts['f'] != "", opts['r'] != "" || opts['R'] != ""
	var errOut strings.Builder
	status := 0
	if len(files) == 0 && !force {
		return "", "rm: missing operand\n", 1
	}
	for _, f := range files {
		if err := r.scratch().Remove(f, recursive); err != nil {
			if err == errNotExist && force {
				continue
			}
			fmt.Fprintf(&errOut, "rm: cannot remove '%s': %v\n", f, err)
			status = 1
		}
	}
	return "", errOut.String(), status
}

func utilMkdir(r *runner, args []string, _ string) (string, string, int) {
	opts, dirs, _ := splitFlags("mkdir", args, "pv", "")
	var errOut strings.Builder
	status := 0
	if len(dirs) == 0 {
		return "", "mkdir: missing operand\n", 1
	}
	for _, d := range dirs {
		if err := r.scratch().Mkdir(d, opts['p'] != ""); err != nil {
			fmt.Fprintf(&errOut, "mkdir: cannot create directory '%s': %v\n", d, err)
			status = 1
		}
	}
	return "", errOut.String(), status
}

func utilTouch(r *runner, args []string, _ string) (string, string, int) {
	_, files, _ := splitFlags("touch", args, "", "")
	var errOut strings.Builder
	status := 0
	for _, f := range files {
		if exists, _, _ := r.scratch().Stat(f); exists {
			continue
		}
		if err := r.scratch().Write(f, nil, false); err != nil {
			fmt.Fprintf(&errOut, "touch: cannot touch '%s': %v\n", f, err)
			status = 1
		}
	}
	return "", errOut.String(), status
}

// utilCopy is cp (or mv) of files: SRC... DST, DST a folder when there are
// several.
func utilCopy(name string, move bool) func(*runner, []string, string) (string, string, int) {
	return func(r *runner, args []string, _ string) (string, string, int) {
		_, ops, _ := splitFlags(name, args, "fv", "")
		if len(ops) < 2 {
			return "", name + ": missing file operand\n", 1
		}
		s := r.scratch()
		dst := ops[len(ops)-1]
		_, dstDir, _ := s.Stat(dst)
		if len(ops) > 2 && !dstDir {
			return "", fmt.Sprintf("%s: target '%s' is not a directory\n", name, dst), 1
		}
		var errOut strings.Builder
		status := 0
		for _, src := range ops[:len(ops)-1] {
			b, err := s.Read(src)
			if err != nil {
				fmt.Fprintf(&errOut, "%s: cannot stat '%s': %v\n", name, src, err)
				status = 1
				continue
			}
			to := dst
			if dstDir {
				to = path.Join(dst, path.Base(src))
			}
			if err := s.Write(to, b, false); err != nil {
				fmt.Fprintf(&errOut, "%s: cannot create regular file '%s': %v\n", name, to, err)
				status = 1
				continue
			}
			if move {
				_ = s.Remove(src, false)
			}
		}
		return "", errOut.String(), status
	}
}

func utilLs(r *runner, args []string, _ string) (string, string, int) {
	_, paths, _ := splitFlags("ls", args, "1", "")
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var out, errOut strings.Builder
	status := 0
	for _, p := range paths {
		names, err := r.scratch().List(p)
		if err != nil {
			fmt.Fprintf(&errOut, "ls: cannot access '%s': %v\n", p, err)
			status = 2
			continue
		}
		for _, n := range names {
			out.WriteString(n + "\n")
		}
	}
	return out.String(), errOut.String(), status
}

func utilTee(r *runner, args []string, stdin string) (string, string, int) {
	opts, files, _ := splitFlags("tee", args, "a", "")
	var errOut bytes.Buffer
	status := 0
	for _, f := range files {
		if err := r.scratch().Write(f, []byte(stdin), opts['a'] != ""); err != nil {
			fmt.Fprintf(&errOut, "tee: %s: %v\n", f, err)
			status = 1
		}
	}
	return stdin, errOut.String(), status
}
