//go:build !linux

package jscompile

import "syscall"

// procAttr is the default elsewhere: the helper exits when its stdin
// closes, which it does when widgetd exits.
func procAttr() *syscall.SysProcAttr { return nil }
