//go:build linux

package fastserve

import (
	"errors"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sendfileMin is the body size from which the fast path sends bodies with
// sendfile(2) from a sealed memfd instead of copying them into the socket:
// the kernel then references the pages instead of copying 60 KB per hit.
const sendfileMin = 8 << 10

// bodyFile is a sealed, read-only memfd holding exactly the bytes of one
// memoised body, so sendfile can never send anything else.
type bodyFile struct{ fd int }

// newBodyFile copies b into a sealed memfd, or returns nil when the kernel
// does not offer memfds (the fast path then writes from memory).
func newBodyFile(b []byte) *bodyFile {
	fd, err := unix.MemfdCreate("widgetd-body", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil
	}
	for off := 0; off < len(b); {
		n, err := unix.Pwrite(fd, b[off:], int64(off))
		if err != nil || n <= 0 {
			unix.Close(fd)
			return nil
		}
		off += n
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS,
		unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE|unix.F_SEAL_SEAL); err != nil {
		unix.Close(fd)
		return nil
	}
	return &bodyFile{fd: fd}
}

func (f *bodyFile) close() { unix.Close(f.fd) }

// sendState is a connection's progress through one sendfile response; its
// step method is handed to RawConn.Write once per connection, so a response
// allocates nothing.
type sendState struct {
	raw  syscall.RawConn
	head []byte // status line, headers, Date and blank line still to send
	fd   int
	off  int64
	end  int64
	err  error
	step func(fd uintptr) bool
}

func newSendState(raw syscall.RawConn) *sendState {
	s := &sendState{raw: raw}
	s.step = s.run
	return s
}

// run sends the head with MSG_MORE, then the body with sendfile, returning
// false to wait for the socket to become writable (the runtime poller
// applies the write deadline).
func (s *sendState) run(fd uintptr) bool {
	for len(s.head) > 0 {
		n, _, errno := syscall.Syscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&s.head[0])), uintptr(len(s.head)), unix.MSG_MORE, 0, 0)
		switch {
		case errno == syscall.EAGAIN:
			return false
		case errno == syscall.EINTR:
			continue
		case errno != 0:
			s.err = errno
			return true
		}
		s.head = s.head[n:]
	}
	for s.off < s.end {
		n, err := unix.Sendfile(int(fd), s.fd, &s.off, int(s.end-s.off))
		switch {
		case errors.Is(err, syscall.EAGAIN):
			return false
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			s.err = err
			return true
		case n == 0:
			s.err = errors.New("sendfile: no progress")
			return true
		}
	}
	return true
}

// send writes head and then the whole body file.
func (s *sendState) send(head []byte, f *bodyFile, size int) error {
	s.head, s.fd, s.off, s.end, s.err = head, f.fd, 0, int64(size), nil
	if err := s.raw.Write(s.step); err != nil {
		return err
	}
	return s.err
}
