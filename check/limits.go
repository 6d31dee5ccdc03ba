package check

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
)

// Rule IDs of the limits the bundler itself enforces on sources. Checking
// from sources reports them as findings; checking a dist/ cannot (the
// sources are gone).
const (
	// RuleBuildOutsideProject: an import, CSS @import/url(), HTML reference
	// or symlink resolves outside the project (diag.CodeOutsideProject).
	RuleBuildOutsideProject = diag.CodeOutsideProject
	// RuleBuildSourceTooLarge: a source file is over maxSourceSize
	// (diag.CodeSourceTooLarge).
	RuleBuildSourceTooLarge = diag.CodeSourceTooLarge
	// RuleBuildHTMLBudget: a widget's HTML is over htmlBudget
	// (diag.CodeHTMLBudget); a warning, as in widgetd build.
	RuleBuildHTMLBudget = diag.CodeHTMLBudget
	// RuleBuildNotRegularFile: a reference names a FIFO, socket or device
	// (diag.CodeNotRegularFile), which a build never opens.
	RuleBuildNotRegularFile = diag.CodeNotRegularFile
)

// limitRules are the rules of this file.
var limitRules = []string{RuleBuildOutsideProject, RuleBuildSourceTooLarge, RuleBuildHTMLBudget, RuleBuildNotRegularFile}

var limitFixes = map[string]string{
	RuleBuildOutsideProject: `move the file into the project, or add its folder to "allowOutside" in widgetd.json if it is meant to be bundled`,
	RuleBuildSourceTooLarge: `load large data at run time instead of bundling it, or raise "maxSourceSize" in widgetd.json`,
	RuleBuildHTMLBudget:     `build with --public-url (external mode) or trim dependencies, or raise "htmlBudget" in widgetd.json`,
	RuleBuildNotRegularFile: `replace the FIFO, socket or device with a regular file, or stop importing it`,
}

// LimitFindings turns the diagnostics of a source build that the bundler
// refused on its own limits into findings, one per diagnostic. ok is false
// when err holds any other diagnostic (a real build error, reported as
// such) or none.
func LimitFindings(err error) (findings []audit.Finding, ok bool) {
	diags := diag.FromError(err)
	if len(diags) == 0 {
		return nil, false
	}
	for _, d := range diags {
		if d.Code == "" || d.Warning {
			return nil, false
		}
		findings = append(findings, limitFinding(d))
	}
	return findings, true
}

// limitFinding is the finding for one coded diagnostic. Source locations
// are file:line:col (there is no dist/ file to give an offset into).
func limitFinding(d diag.Diagnostic) audit.Finding {
	sev := audit.Error
	if d.Warning {
		sev = audit.Warning
	}
	file := d.File
	if d.Line > 0 {
		file += ":" + strconv.Itoa(d.Line)
		if d.Column > 0 {
			file += ":" + strconv.Itoa(d.Column)
		}
	}
	return audit.Finding{Subject: widgetOf(d.File), Rule: d.Code, Severity: sev, Message: d.Message, Fix: limitFixes[d.Code], File: file, Offset: -1}
}

// widgetOf names the widget whose folder (the nearest one up with a
// widget.json) holds file, or "project".
func widgetOf(file string) string {
	for d := file; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, layout.WidgetConfigFile)); err == nil {
			return filepath.Base(d)
		}
		if filepath.Dir(d) == d || d == "." {
			return "project"
		}
	}
}

// limitWarnings are the findings for the coded warnings of a source build
// (the HTML budget).
func limitWarnings(diags []diag.Diagnostic) []audit.Finding {
	var out []audit.Finding
	for _, d := range diags {
		if d.Code != "" && d.Warning {
			out = append(out, limitFinding(d))
		}
	}
	return out
}
