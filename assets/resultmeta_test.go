package assets_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

func TestResultMetaWire(t *testing.T) {
	type detail struct {
		Hourly []int `json:"hourly"`
	}
	for _, tc := range []struct {
		name    string
		m       assets.ResultMeta
		want    string // JSON, or the error text
		wantErr bool
	}{
		{"empty", assets.ResultMeta{}, `null`, false},
		{"state", assets.ResultMeta{WidgetState: assets.WidgetState{ModelContent: map[string]any{"day": 1}, ImageIDs: []string{"img1"}}},
			`{"openai/widgetState":{"modelContent":{"day":1},"imageIds":["img1"]}}`, false},
		{"close", assets.ResultMeta{CloseWidget: true}, `{"openai/closeWidget":true}`, false},
		{"data struct", assets.ResultMeta{Data: detail{[]int{1, 2}}, WidgetState: map[string]int{"page": 2}},
			`{"hourly":[1,2],"openai/widgetState":{"page":2}}`, false},
		{"data map", assets.ResultMeta{Data: map[string]any{"a": "b"}}, `{"a":"b"}`, false},
		{"data not an object", assets.ResultMeta{Data: []int{1}}, `is not a JSON object`, true},
		{"data null", assets.ResultMeta{Data: (*detail)(nil)}, `is not a JSON object`, true},
		{"data reuses a key", assets.ResultMeta{Data: map[string]any{"openai/closeWidget": false}}, `set ResultMeta.CloseWidget instead`, true},
		{"data does not marshal", assets.ResultMeta{Data: map[string]any{"f": func() {}}}, `result meta: data:`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.m.Wire()
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want one containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(got)
			if string(data) != tc.want {
				t.Errorf("Wire = %s, want %s", data, tc.want)
			}
		})
	}
}
