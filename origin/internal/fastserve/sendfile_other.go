//go:build !linux

package fastserve

import "syscall"

// sendfileMin disables the sendfile path where memfds do not exist.
const sendfileMin = 1 << 62

type bodyFile struct{}

func newBodyFile([]byte) *bodyFile { return nil }

func (*bodyFile) close() {}

type sendState struct{}

func newSendState(syscall.RawConn) *sendState { return nil }

func (*sendState) send([]byte, *bodyFile, int) error { return syscall.ENOTSUP }
