package devserver

import (
	"encoding/json"
	"fmt"
	"sync"
)

// hub fans build events out to SSE streams and Subscribe channels.
//
// Every channel is buffered and publish never blocks on a slow reader: when
// a buffer is full the oldest pending event makes room for the new one, so a
// reader that falls behind skips intermediate builds but always gets the
// latest, whose event carries the full current state. Once closed (server
// shutdown) the hub ends every channel, and channels asked for later come
// back already closed.
type hub struct {
	mu      sync.Mutex
	streams map[chan []byte]struct{}
	events  map[chan *BuildEvent]struct{}
	closed  bool
}

// Buffer sizes of a live-reload stream and of a Subscribe channel.
const (
	streamBuffer    = 4
	subscribeBuffer = 16
)

// publish sends ev to every stream and subscriber without blocking; see hub
// for what a reader that cannot keep up gets.
func (h *hub) publish(ev *BuildEvent) {
	data, err := json.Marshal(ev)
	if err != nil {
		data = []byte(fmt.Sprintf(`{"ok":false,"diagnostics":[{"file":"widgetd","message":%q,"text":%q}]}`, err, err))
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.streams {
		sendDroppingOldest(ch, data)
	}
	for ch := range h.events {
		sendDroppingOldest(ch, ev)
	}
}

// sendDroppingOldest sends v on ch without blocking: when ch's buffer is
// full, it discards the oldest pending value first. The caller holds the
// hub's lock, so it is ch's only sender and, once a value is discarded (by
// it or by the reader), the send has room.
func sendDroppingOldest[T any](ch chan T, v T) {
	for {
		select {
		case ch <- v:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
	}
}

// maxLiveStreams bounds the open live-reload streams (one per preview tab).
const maxLiveStreams = 256

// addStream registers an SSE stream; ok is false once the server is closing
// or maxLiveStreams are open.
func (h *hub) addStream() (ch chan []byte, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || len(h.streams) >= maxLiveStreams {
		return nil, false
	}
	if h.streams == nil {
		h.streams = map[chan []byte]struct{}{}
	}
	ch = make(chan []byte, streamBuffer)
	h.streams[ch] = struct{}{}
	return ch, true
}

func (h *hub) removeStream(ch chan []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.streams[ch]; ok {
		delete(h.streams, ch)
		close(ch)
	}
}

// subscribe returns a channel that receives every build event from now on
// and a function that unsubscribes (closing the channel; calling it again
// does nothing). After closeAll the channel comes back already closed, so a
// reader ranging over it ends instead of waiting forever.
func (h *hub) subscribe() (<-chan *BuildEvent, func()) {
	ch := make(chan *BuildEvent, subscribeBuffer)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		close(ch)
		return ch, func() {}
	}
	if h.events == nil {
		h.events = map[chan *BuildEvent]struct{}{}
	}
	h.events[ch] = struct{}{}
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if _, ok := h.events[ch]; ok {
			delete(h.events, ch)
			close(ch)
		}
	}
}

// closeAll ends every stream and subscription (server shutdown).
func (h *hub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for ch := range h.streams {
		close(ch)
	}
	h.streams = nil
	for ch := range h.events {
		close(ch)
	}
	h.events = nil
}
