//go:build !linux

package devserver

import "context"

// notifier is Linux's inotify wake-up (watchnotify_linux.go); elsewhere the
// watcher polls only.
type notifier struct{}

func newNotifier(context.Context) *notifier { return nil }

func (n *notifier) watch([]string) {}

func (n *notifier) wakeups() <-chan struct{} { return nil }
