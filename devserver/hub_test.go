package devserver

import (
	"encoding/json"
	"testing"
	"time"
)

// hubWait bounds how long a test waits for a channel to deliver or close; it
// is only reached when the hub is broken.
const hubWait = 30 * time.Second

// TestHubSlowReaderGetsLatest publishes more builds than the buffers hold to
// readers that read nothing meanwhile: each reader then finds the newest
// builds, in order, ending with the last one, and nothing older than what
// the buffer holds.
func TestHubSlowReaderGetsLatest(t *testing.T) {
	for _, builds := range []int{1, streamBuffer, subscribeBuffer, subscribeBuffer + 1, 100} {
		var h hub
		events, unsub := h.subscribe()
		defer unsub()
		stream, ok := h.addStream()
		if !ok {
			t.Fatal("addStream refused on an open hub")
		}
		for seq := 1; seq <= builds; seq++ {
			h.publish(&BuildEvent{Seq: seq, OK: true})
		}
		var got []int
		for len(events) > 0 {
			got = append(got, (<-events).Seq)
		}
		checkNewest(t, "Subscribe", got, builds, subscribeBuffer)
		got = nil
		for len(stream) > 0 {
			var ev BuildEvent
			if err := json.Unmarshal(<-stream, &ev); err != nil {
				t.Fatal(err)
			}
			got = append(got, ev.Seq)
		}
		checkNewest(t, "stream", got, builds, streamBuffer)
		h.removeStream(stream)
	}
}

// checkNewest checks that got is the last min(builds, buffer) of 1..builds.
func checkNewest(t *testing.T, what string, got []int, builds, buffer int) {
	t.Helper()
	first := max(1, builds-buffer+1)
	if len(got) != builds-first+1 {
		t.Fatalf("%s after %d builds: got seqs %v, want %d..%d", what, builds, got, first, builds)
	}
	for i, seq := range got {
		if seq != first+i {
			t.Fatalf("%s after %d builds: got seqs %v, want %d..%d", what, builds, got, first, builds)
		}
	}
}

// TestHubSlowConcurrentReader races a publisher against readers slower than
// it (run with -race): whatever they skip, every reader sees strictly
// increasing builds and the final one before its channel closes.
func TestHubSlowConcurrentReader(t *testing.T) {
	const builds = 300
	var h hub
	events, unsub := h.subscribe()
	defer unsub()
	stream, _ := h.addStream()
	lastEvent, lastStream := make(chan int, 1), make(chan int, 1)
	go func() {
		last := 0
		for ev := range events {
			if ev.Seq <= last {
				t.Errorf("Subscribe: seq %d after %d", ev.Seq, last)
			}
			last = ev.Seq
			time.Sleep(time.Millisecond)
		}
		lastEvent <- last
	}()
	go func() {
		last := 0
		for data := range stream {
			var ev BuildEvent
			if err := json.Unmarshal(data, &ev); err != nil || ev.Seq <= last {
				t.Errorf("stream: %s after seq %d (%v)", data, last, err)
			}
			last = ev.Seq
			time.Sleep(time.Millisecond)
		}
		lastStream <- last
	}()
	for seq := 1; seq <= builds; seq++ {
		h.publish(&BuildEvent{Seq: seq, OK: true})
	}
	h.closeAll() // a closed channel still delivers what is pending first
	for name, ch := range map[string]chan int{"Subscribe": lastEvent, "stream": lastStream} {
		select {
		case last := <-ch:
			if last != builds {
				t.Errorf("%s: last build seen %d, want the final %d", name, last, builds)
			}
		case <-time.After(hubWait):
			t.Fatalf("%s: channel not closed after closeAll", name)
		}
	}
}

// TestSubscribeAfterClose: a subscriber added after shutdown gets a channel
// that is already closed (a range over it ends), and unsubscribing it is
// harmless; streams are refused.
func TestSubscribeAfterClose(t *testing.T) {
	s := &Server{}
	before, unsubBefore := s.Subscribe()
	s.hub.closeAll()
	after, unsubAfter := s.Subscribe()
	s.hub.publish(&BuildEvent{Seq: 1}) // after shutdown: reaches no one, panics on nothing
	for name, ch := range map[string]<-chan *BuildEvent{"before close": before, "after close": after} {
		select {
		case ev, open := <-ch:
			if open {
				t.Errorf("%s: got event %+v, want a closed channel", name, ev)
			}
		case <-time.After(hubWait):
			t.Fatalf("%s: channel never closes", name)
		}
	}
	unsubAfter()
	unsubAfter()
	unsubBefore()
	if _, ok := s.hub.addStream(); ok {
		t.Error("addStream accepted a stream after closeAll")
	}
}

// TestUnsubscribeStopsDelivery: after unsubscribing, the channel is closed
// and later builds do not reach it (nor panic on it).
func TestUnsubscribeStopsDelivery(t *testing.T) {
	var h hub
	events, unsub := h.subscribe()
	h.publish(&BuildEvent{Seq: 1})
	unsub()
	unsub()
	h.publish(&BuildEvent{Seq: 2})
	var got []int
	for ev := range events {
		got = append(got, ev.Seq)
	}
	if len(got) != 1 || got[0] != 1 {
		t.Errorf("got seqs %v, want [1] then close", got)
	}
}
