package check

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"

	"github.com/widgetd/widgetd/assets/audit"
)

// sizeRules warns about an inline document over the inline budget and a
// widget whose transfer size is over the transfer budget.
func (c *widgetCheck) sizeRules(files []scanned) {
	page := files[0]
	if c.w.Inline && int64(len(page.data)) > c.opts.InlineBudget {
		c.add(RuleSizeInline, audit.Warning, page.path, -1, "split off heavy dependencies, lazy-load them from your public URL, or raise --budget-inline",
			"the inline document is %d bytes, over the %d-byte budget; hosts send it whole in every resources/read answer", len(page.data), c.opts.InlineBudget)
	}
	var total int64
	var parts []string
	for _, f := range files {
		n := c.transferSize(f.path, f.data)
		total += n
		parts = append(parts, fmt.Sprintf("%s %d", f.path, n))
	}
	if total > c.opts.TransferBudget {
		c.add(RuleSizeTransfer, audit.Warning, "", -1, "trim dependencies (check the bundle with esbuild's analyzer) or raise --budget-transfer",
			"the widget transfers %d bytes compressed (%s), over the %d-byte budget", total, strings.Join(parts, ", "), c.opts.TransferBudget)
	}
}

// transferSize is the smallest precompressed size of a file, or its gzip
// size when the build has no encodings (an in-memory assembly).
func (c *widgetCheck) transferSize(p string, data []byte) int64 {
	if f, ok := c.files[p]; ok && len(f.Encodings) > 0 {
		best := f.Size
		for _, e := range f.Encodings {
			best = min(best, e.Size)
		}
		return best
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	return min(int64(buf.Len()), int64(len(data)))
}
