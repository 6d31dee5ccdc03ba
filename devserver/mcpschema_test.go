package devserver

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestValidateArguments: arguments are checked against a usable
// inputSchema; a schema the validator cannot use lets the call through
// unchecked instead of blocking it.
func TestValidateArguments(t *testing.T) {
	obj := map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 1}}, "required": []any{"n"}}
	for _, c := range []struct {
		name    string
		schema  any
		args    map[string]any
		checked bool
		errHas  string
	}{
		{"valid", obj, map[string]any{"n": 3}, true, ""},
		{"wrong type", obj, map[string]any{"n": "3"}, true, "inputSchema"},
		{"below minimum", obj, map[string]any{"n": 0}, true, "minimum"},
		{"missing required", obj, nil, true, "n"},
		{"no schema", nil, map[string]any{"x": 1}, false, ""},
		{"schema not an object", "string", map[string]any{}, false, ""},
		{"unsupported draft", map[string]any{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "required": []any{"x"}}, nil, false, ""},
		{"unresolvable $ref", map[string]any{"$ref": "https://example.com/remote.json"}, nil, false, ""},
		{"draft-07", map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": []any{"x"}}, nil, true, "x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			checked, err := validateArguments(c.schema, c.args)
			if checked != c.checked || (err == nil) != (c.errHas == "") || (err != nil && !strings.Contains(err.Error(), c.errHas)) {
				t.Errorf("checked %v, err %v; want checked %v, error with %q", checked, err, c.checked, c.errHas)
			}
		})
	}
}

// TestLimitedTransport reads answers through the size cap over real HTTP:
// exactly the limit passes, one byte more fails with the limit named.
func TestLimitedTransport(t *testing.T) {
	const limit = 1000
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(r.URL.Query().Get("n"), &n)
		_, _ = w.Write([]byte(strings.Repeat("x", n)))
	}))
	defer hs.Close()
	client := &http.Client{Transport: limitedTransport{base: http.DefaultTransport, limit: limit}}
	for _, c := range []struct {
		n      int
		failed bool
	}{{0, false}, {limit, false}, {limit + 1, true}, {10 * limit, true}} {
		res, err := client.Get(fmt.Sprintf("%s/?n=%d", hs.URL, c.n))
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		if (err != nil) != c.failed || (err != nil && !strings.Contains(err.Error(), "larger than 1000 bytes")) || len(data) > limit {
			t.Errorf("%d bytes: read %d, err %v; want failure %v", c.n, len(data), err, c.failed)
		}
	}
}
