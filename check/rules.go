package check

import (
	"fmt"
	"path"
	"strings"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
)

// Rule IDs of the build-level rules. They are stable: CI configurations and
// docs/check.md refer to them.
const (
	RuleCSPUndeclaredConnect  = "csp-undeclared-connect"
	RuleCSPUndeclaredResource = "csp-undeclared-resource"
	RuleCSPUndeclaredFrame    = "csp-undeclared-frame"
	RuleCSPUndeclaredBaseURI  = "csp-undeclared-base-uri"
	RuleCSPBlockedDataURL     = "csp-blocked-data-url"
	RuleCSPUnusedDomain       = "csp-unused-domain"
	RuleCSPFrameDomains       = "csp-frame-domains"
	RuleMetaCSPMissing        = "meta-csp-missing"
	RuleMetaCSPMismatch       = "meta-csp-mismatch"
	RuleMetaCSPInvalid        = "meta-csp-invalid"
	RuleMetaDomainMismatch    = "meta-domain-mismatch"
	RuleDomainMissing         = "domain-missing"
	RuleDomainInvalid         = "domain-invalid"
	RuleWidgetDescription     = "widget-description-missing"
	RuleJSEval                = "js-eval"
	RuleSizeInline            = "size-inline-budget"
	RuleSizeTransfer          = "size-transfer-budget"
	RuleInlineScriptHazard    = "html-inline-script-hazard"
	RuleHTMLInvalid           = "html-invalid"
	RuleFileMissing           = "build-file-missing"
)

// widgetCheck runs the rules on one widget.
type widgetCheck struct {
	in    *Input
	opts  Options
	w     *assets.Widget
	files map[string]assets.File
	out   []audit.Finding
	// loc finds URLs in the widget's sources (nil for a dist/); made on
	// first use.
	loc     *sourceLocator
	locMade bool
	// srcPos holds the source position of the finding at an index of out,
	// when it was located in the sources.
	srcPos map[int]sourcePos
}

func (c *widgetCheck) add(rule string, sev audit.Severity, file string, off int, fix, format string, args ...any) {
	if file == "" {
		off = -1
	}
	c.out = append(c.out, audit.Finding{Subject: c.w.Name, Rule: rule, Severity: sev, File: file, Offset: off,
		Message: fmt.Sprintf(format, args...), Fix: fix})
}

// config is the widget.json path to name in fixes.
func (c *widgetCheck) config() string {
	if d, ok := c.in.ConfigDir[c.w.Name]; ok && d != "" {
		return path.Join(d, "widget.json")
	}
	return "widgets/" + c.w.Name + "/widget.json"
}

// scanned is one scanned file of the widget.
type scanned struct {
	path string
	data []byte
	res  scanResult
	doc  *htmlDoc
}

func (c *widgetCheck) run() {
	pol := c.metaRules()
	files, ok := c.scanFiles()
	if !ok {
		return
	}
	c.htmlRules(files[0])
	if pol != nil {
		c.urlRules(pol, files)
		c.unusedRules(pol, files)
	}
	c.evalRules(files)
	c.mountRules(files)
	c.renderRules(files)
	c.workerRules(files)
	c.sizeRules(files)
}

// scanFiles scans the widget's HTML document (first) and the files it
// loads. ok is false when the document is missing (reported).
func (c *widgetCheck) scanFiles() (files []scanned, ok bool) {
	doc, ok := c.in.Files[c.w.HTML]
	if !ok {
		c.add(RuleFileMissing, audit.Error, c.w.HTML, -1, "rebuild with widgetd build; dist/ must hold every file the manifest names", "the widget's HTML document is missing from the build")
		return nil, false
	}
	res, hd := scanHTML(doc)
	files = append(files, scanned{path: c.w.HTML, data: doc, res: res, doc: hd})
	for _, p := range c.w.Files {
		data, ok := c.in.Files[p]
		if !ok {
			c.add(RuleFileMissing, audit.Error, p, -1, "rebuild with widgetd build; dist/ must hold every file the manifest names", "a file the widget loads is missing from the build")
			continue
		}
		switch strings.ToLower(path.Ext(p)) {
		case ".js", ".mjs":
			files = append(files, scanned{path: p, data: data, res: scanJS(data)})
		case ".css":
			files = append(files, scanned{path: p, data: data, res: scanCSS(data)})
		default:
			files = append(files, scanned{path: p, data: data})
		}
	}
	return files, true
}

// locate returns where in the widget's sources r was written, or false.
func (c *widgetCheck) locate(r urlRef) (sourcePos, bool) {
	if !c.locMade {
		c.loc, c.locMade = c.newSourceLocator(), true
	}
	return c.loc.find(r)
}
