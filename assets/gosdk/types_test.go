package gosdk

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
)

// TestServeTypesNotRequested: outside `widgetd types --from` ServeTypes
// returns at once and serves nothing (the --from path itself is tested
// end to end in cmd/widgetd TestTypesExampleServer).
func TestServeTypesNotRequested(t *testing.T) {
	for _, v := range []string{"", "1", "http"} {
		t.Setenv(assets.TypesEnv, v)
		s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
		if served, err := ServeTypes(context.Background(), s); served || err != nil {
			t.Errorf("%s=%q: served %v, err %v; want false, nil", assets.TypesEnv, v, served, err)
		}
	}
}
