// Package regularfile reads a file a user names (widget.json, widgetd.json,
// a fixture) only when it is a regular file, and at most up to a size: a
// named pipe would block the open forever, a device (/dev/zero) would be
// read without end, and neither is ever a config file.
package regularfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError reports a path that names a named pipe, a socket, a
// device or a folder instead of a regular file.
type NotRegularError struct {
	// Path is the file as the caller named it.
	Path string
	// Kind says what it is instead ("a named pipe (FIFO)").
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; widgetd reads only regular files, so replace it with the file itself", e.Path, e.Kind)
}

// TooLargeError reports a file over the size its reader accepts.
type TooLargeError struct {
	// Path is the file as the caller named it.
	Path string
	// Size is its size in bytes (at least Max+1 when it grew while read).
	Size int64
	// Max is the limit in bytes.
	Max int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %s; this file is read only up to %s", e.Path, FormatBytes(e.Size), FormatBytes(e.Max))
}

// Read returns the contents of the regular file at path, refusing any other
// kind of file before opening it (opening a named pipe blocks until a writer
// comes) and any file over max bytes before reading it. The file is opened
// without blocking and checked again, so one swapped in between the two
// checks is refused too, and the read stops at max+1 bytes whatever the
// file claims. A missing file gives an error that matches fs.ErrNotExist.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Path: path, Size: int64(len(data)), Max: max}
	}
	return data, nil
}

// Open opens the regular file at path for reading, with Read's checks:
// anything but a regular file, or a file listed as over max bytes, is
// refused before it is opened and again once it is. A caller that streams
// the file (a copy) must still stop at max+1 bytes itself, since /proc
// files list a size of 0.
func Open(path string, max int64) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, st, max); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlocking, 0)
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err == nil {
		err = check(path, st, max)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// check refuses what st describes unless it is a regular file of at most
// max bytes.
func check(path string, st fs.FileInfo, max int64) error {
	if kind := Kind(st.Mode()); kind != "" {
		return &NotRegularError{Path: path, Kind: kind}
	}
	if st.Size() > max {
		return &TooLargeError{Path: path, Size: st.Size(), Max: max}
	}
	return nil
}

// Kind names what a file of mode m is when it is not a regular file ("a
// named pipe (FIFO)", "a socket", "a character device", "a device", "a
// folder"), or returns "" for a regular file.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// FormatBytes writes n as B, KiB or MiB.
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
