package jscompile

import "syscall"

// procAttr makes the kernel kill the helper when widgetd dies, however it
// dies (a second Ctrl-C, SIGKILL, the exit after a signal's grace period):
// a Node process busy in a compiler would otherwise outlive it.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
