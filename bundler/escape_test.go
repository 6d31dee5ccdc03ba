package bundler

import (
	"bytes"
	"regexp"
	"testing"
)

// The regular expressions escapeInlineScript and escapeInlineStyle used to
// run over whole bundles; escapeClose must give the same bytes.
var (
	refScriptClose = regexp.MustCompile(`(?i)</(script)`)
	refCommentOpen = regexp.MustCompile(`<!--`)
	refStyleClose  = regexp.MustCompile(`(?i)</(style)`)
)

func refEscapeScript(js []byte) []byte {
	return refCommentOpen.ReplaceAll(refScriptClose.ReplaceAll(js, []byte(`<\/$1`)), []byte(`<\!--`))
}

func refEscapeStyle(css []byte) []byte { return refStyleClose.ReplaceAll(css, []byte(`<\/$1`)) }

var escapeCases = []string{
	"", "plain", "</script>", "a</SCRIPT>b</ScRiPt", "</scrip", "<</script", "</</script>",
	"x='</script><!--'", "<!--<!---->", "</ſcript>", "</style></STYLE>", "</sty", "</",
	"<", "</script</script</script", "a<!-b<!--c", "\xff</script\xfe",
}

func TestEscapeCloseMatchesRegexp(t *testing.T) {
	for _, in := range escapeCases {
		if got, want := escapeInlineScript([]byte(in)), refEscapeScript([]byte(in)); !bytes.Equal(got, want) {
			t.Errorf("escapeInlineScript(%q) = %q, want %q", in, got, want)
		}
		if got, want := escapeInlineStyle([]byte(in)), refEscapeStyle([]byte(in)); !bytes.Equal(got, want) {
			t.Errorf("escapeInlineStyle(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzEscapeClose(f *testing.F) {
	for _, in := range escapeCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := escapeInlineScript(in), refEscapeScript(in); !bytes.Equal(got, want) {
			t.Fatalf("escapeInlineScript(%q) = %q, want %q", in, got, want)
		}
		if got, want := escapeInlineStyle(in), refEscapeStyle(in); !bytes.Equal(got, want) {
			t.Fatalf("escapeInlineStyle(%q) = %q, want %q", in, got, want)
		}
	})
}
