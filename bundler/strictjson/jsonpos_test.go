package strictjson

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// nested returns an object whose member "x" holds depth arrays nested in
// one another, the shape of the hostile fixtures.
func nested(depth int) string {
	return `{"x":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}"
}

// deepObjects returns depth objects nested under keys of keyLen bytes each:
// with one path string stored per level, the index of this document would
// cost depth²·keyLen/2 bytes.
func deepObjects(depth, keyLen int) string {
	key := `"` + strings.Repeat("k", keyLen) + `":`
	return strings.Repeat("{"+key, depth) + "1" + strings.Repeat("}", depth)
}

// TestJSONDocErrors pins where and how Parse reports each kind of
// bad document, and what it accepts.
func TestJSONDocErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string // want "" means accepted
	}{
		{"BOM skipped", "\xEF\xBB\xBF{\"a\": 1}", ""},
		{"BOM then error", "\xEF\xBB\xBF{\"a\": }", "f.json:1:7: error: invalid JSON"},
		{"trailing comma object", "{\n  \"a\": 1,\n}", "f.json:2:9: error: invalid JSON: trailing comma"},
		{"trailing comma array", "{\"a\": [1, 2 ,\n ]}", "f.json:1:13: error: invalid JSON: trailing comma"},
		{"trailing comma nested", "{\"a\": {\"b\": [1],}}", "f.json:1:16: error: invalid JSON: trailing comma"},
		{"comma before key is no trailing comma", "{\"a\": 1, 2}", "f.json:1:10: error: invalid JSON: invalid character '2'"},
		{"depth at the limit", nested(maxJSONDepth - 1), ""},
		{"depth over the limit", nested(maxJSONDepth), "f.json:1:1005: error: objects and arrays are nested more than 1000 levels deep"},
		{"16000 deep", nested(16000), "f.json:1:1005: error: objects and arrays are nested more than 1000 levels deep"},
		{"objects over the limit", deepObjects(maxJSONDepth+1, 1), "f.json:1:5001: error: objects and arrays are nested more than 1000 levels deep"},
		{"duplicate key", "{\"a\": {\"b\": 1, \"b\": 2}}", "f.json:1:16: error: field \"b\" appears twice"},
		{"same key in two objects", "{\"a\": {\"b\": 1}, \"c\": {\"b\": 2}}", ""},
		{"not an object", "[1]", "f.json:1:1: error: the file must hold a JSON object"},
		{"content after", "{} {}", "f.json:1:4: error: unexpected content after the closing }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.json", []byte(tc.data))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("want accepted, got %v", err)
			case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
				t.Fatalf("got %v\nwant %s…", err, tc.want)
			}
		})
	}
}

// TestJSONDocLookup: every path the decoder indexes resolves to its
// position and back, keys holding "." or "[" included.
func TestJSONDocLookup(t *testing.T) {
	data := `{"csp": {"connectDomains": ["a", "b"]}, "a.b": {"c": 1}, "a": {"b": {"d": [[0, {"e": 2}]]}}}`
	doc, err := Parse("f.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		at   string // the text at the node's offset
	}{
		{"csp", `"csp"`},
		{"csp.connectDomains[1]", `"b"`},
		{"a.b.c", `"c": 1`},
		{"a.b.d[0][1].e", `"e": 2`},
		{"a.b.d[0][0]", `0,`},
	} {
		n, ok := doc.lookup(tc.path)
		if !ok {
			t.Errorf("lookup(%q) found nothing", tc.path)
			continue
		}
		if got := data[doc.nodes[n].off:]; !strings.HasPrefix(got, tc.at) {
			t.Errorf("lookup(%q) at %.12q, want %q", tc.path, got, tc.at)
		}
		if got := doc.pathOf(n); got != tc.path {
			t.Errorf("pathOf(lookup(%q)) = %q", tc.path, got)
		}
	}
	for _, missing := range []string{"csp.connectDomains[2]", "csp[0]", "nope", "a.b.d[x]", "csp.connectDomains[1].x"} {
		if _, ok := doc.lookup(missing); ok {
			t.Errorf("lookup(%q) found a node", missing)
		}
	}
	if got := doc.memberKeys("a.b"); strings.Join(got, ",") != "c" && strings.Join(got, ",") != "d" {
		t.Errorf("memberKeys(a.b) = %v", got)
	}
}

// allocatedBy returns the bytes f allocates.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// linearBound is the most a position-decoding read of n input bytes may
// allocate: a constant factor of its size plus a fixed allowance (decoder
// buffers, the error message). The factor is generous; what it rules out is
// memory growing with depth × size, which reached gigabytes (issue 19).
func linearBound(n int) uint64 { return 300*uint64(n) + 2<<20 }

// TestJSONDocMemoryLinear decodes the deep documents (and the worst
// shapes under the depth limit) and asserts the bytes allocated stay under
// a linear bound of the input size. Before the node tree, the 999-deep
// document of 1,000-byte keys allocated about 500 MB.
func TestJSONDocMemoryLinear(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
	}{
		{"fixture 32 KB 16000 deep", nested(16000)},
		{"widget.json 64 KB 32000 deep", nested(32000)},
		{"400 KB 200000 deep", nested(200000)},
		{"999 deep, 1000-byte keys", deepObjects(maxJSONDepth-1, 1000)},
		{"999 deep arrays", nested(maxJSONDepth - 1)},
		{"wide array", `{"a":[` + strings.Repeat("0,", 100000) + `0]}`},
		{"many keys", manyKeys(20000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v map[string]any
			got := allocatedBy(func() {
				_ = Decode("f.json", []byte(tc.data), &v, "fixture")
			})
			t.Logf("%d bytes in, %d bytes allocated", len(tc.data), got)
			if limit := linearBound(len(tc.data)); got > limit {
				t.Errorf("decoding %d bytes allocated %d bytes, over the linear bound %d", len(tc.data), got, limit)
			}
		})
	}
}

// manyKeys is an object of n distinct members.
func manyKeys(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":[1]`, i)
	}
	b.WriteByte('}')
	return b.String()
}

// FuzzJSONDoc: any input is either indexed or refused with a positioned
// error, never a panic, and what it costs stays under a linear bound of its
// size (no input may make the decoder's memory grow with depth × size).
func FuzzJSONDoc(f *testing.F) {
	for _, seed := range []string{
		`{"a": [1, {"b": null}], "c": "\u00e9"}`,
		"\xEF\xBB\xBF{\"a\": 1,}",
		nested(maxJSONDepth - 1),
		nested(maxJSONDepth + 5),
		deepObjects(50, 30),
		`{"a.b": {"c[0]": [true]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var doc *Doc
		var err error
		got := allocatedBy(func() { doc, err = Parse("f.json", data) })
		if got > linearBound(len(data)) {
			t.Fatalf("%d input bytes allocated %d bytes", len(data), got)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		// A key holding "." can make two nodes share a path, so only
		// that every path resolves is asserted (for the first nodes: the
		// check costs depth × nodes).
		for n := range min(len(doc.nodes), 500) {
			if _, ok := doc.lookup(doc.pathOf(int32(n))); !ok {
				t.Fatalf("path %q of node %d resolves to nothing", doc.pathOf(int32(n)), n)
			}
		}
	})
}
