package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// dataFileName is the database file serve keeps in a --data folder.
const dataFileName = "sortie.db"

// dataFile turns serve's --data into the SQLite file to open: a folder (one
// that exists, or a path ending in a separator) gets sortie.db inside it.
// It makes the folder if needed and checks that the file can be used, so
// that a bad path is refused with a sentence saying why rather than with
// SQLite's "unable to open database file (14)".
func dataFile(path string) (string, error) {
	if path == "" {
		return "", errors.New("--data is empty: name a folder or a database file")
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() || strings.HasSuffix(path, string(filepath.Separator)) || strings.HasSuffix(path, "/") {
		path = filepath.Join(path, dataFileName)
	}
	cannot := func(why string, args ...any) error {
		return fmt.Errorf("cannot keep the matches in %s: %s", path, fmt.Sprintf(why, args...))
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		if fi.IsDir() {
			return "", cannot("it is a folder")
		}
		if !fi.Mode().IsRegular() {
			return "", cannot("it is not a regular file")
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return "", cannot("the file cannot be opened for reading and writing (%s)", reason(err))
		}
		head := make([]byte, 16)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if n > 0 && string(head[:n]) != "SQLite format 3\x00"[:n] {
			return "", cannot("the file is not a Sortie database (not even an SQLite file); choose another path")
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			if f := fileAbove(dir); f != "" {
				return "", cannot("%s is a file, not a folder", f)
			}
			return "", cannot("the folder %s cannot be created (%s)", dir, reason(err))
		}
	default:
		if f := fileAbove(dir); f != "" {
			return "", cannot("%s is a file, not a folder", f)
		}
		return "", cannot("%s", reason(err))
	}
	// SQLite writes its journal (the -wal and -shm files) beside the
	// database, so the folder itself must take new files.
	probe, err := os.CreateTemp(dir, ".sortie-probe-*")
	if err != nil {
		return "", cannot("the folder %s does not let new files be written (%s), and SQLite keeps its journal beside the database", dir, reason(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return path, nil
}

// fileAbove returns the nearest existing ancestor of dir (dir included)
// that is not a folder, or "".
func fileAbove(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil {
			if !fi.IsDir() {
				return d
			}
			return ""
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// reason is the operating system's reason in an error about a path,
// without the path it repeats.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
