package check

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/widgetd/widgetd/assets/audit"
)

// Rule IDs of the server cross-checks of `widgetd check --mcp`.
const (
	// RuleToolResourceNotInBuild: a tool links a widget resource the checked
	// build does not have, so the server runs another build than the one
	// checked.
	RuleToolResourceNotInBuild = "tool-resource-not-in-build"
	// RuleServerResourceNotInBuild: the server lists a ui:// resource the
	// checked build does not have.
	RuleServerResourceNotInBuild = "server-resource-not-in-build"
)

// ServerSubject is the Subject of findings about the server as a whole.
const ServerSubject = "server"

// Server is what a running MCP server sends, as `widgetd check --mcp`
// audits it.
type Server struct {
	// Tools are the tools as tools/list sends them.
	Tools []audit.Tool
	// Listed are the resource URIs resources/list sends.
	Listed []string
	// Readable are further URIs the server answers resources/read for (a
	// tool's link to an unlisted alias, say).
	Readable []string
}

// RunServer audits srv: the tool-level rules of assets/audit on its tools,
// with a widget link resolving when the server lists or reads the resource,
// and cross-checks against the build in (every widget link, and every ui://
// resource the server lists, names a resource of in's current build).
// Findings are sorted by subject, as Run's are.
func RunServer(srv Server, in *Input) []audit.Finding {
	answered := audit.URIList(append(slices.Clone(srv.Listed), srv.Readable...))
	findings := audit.CheckTools(srv.Tools, answered)
	current, retained := buildURIs(in)
	for _, t := range srv.Tools {
		for _, u := range audit.WidgetURIs(t) {
			if strings.HasPrefix(u, "ui://") && !current[u] {
				findings = append(findings, notInBuild("tool "+t.Name, RuleToolResourceNotInBuild, audit.Error, u, retained[u]))
			}
		}
	}
	for _, u := range srv.Listed {
		if strings.HasPrefix(u, "ui://") && !current[u] {
			findings = append(findings, notInBuild(ServerSubject, RuleServerResourceNotInBuild, audit.Warning, u, retained[u]))
		}
	}
	sort.SliceStable(findings, func(i, j int) bool { return findings[i].Subject < findings[j].Subject })
	return findings
}

// buildURIs returns the resource URIs of in's current build (hashed and
// alias) and, by URI, the ID of a retained earlier build that had it.
func buildURIs(in *Input) (current map[string]bool, retained map[string]string) {
	current, retained = map[string]bool{}, map[string]string{}
	for _, w := range in.Manifest.Widgets {
		for _, p := range w.Profiles {
			current[p.URI], current[p.AliasURI] = true, true
		}
	}
	for _, b := range in.Manifest.Builds {
		for _, bw := range b.Widgets {
			for _, u := range bw.URIs {
				if !current[u] && retained[u] == "" {
					retained[u] = b.ID
				}
			}
		}
	}
	return current, retained
}

// notInBuild is the finding for uri, absent from the checked build's current
// widgets; earlierBuild is the ID of a retained build that had it, if any.
func notInBuild(subject, rule string, sev audit.Severity, uri, earlierBuild string) audit.Finding {
	msg := fmt.Sprintf("%q is not a widget resource of the checked build, so the server does not serve the widgets this check audited", uri)
	if earlierBuild != "" {
		msg = fmt.Sprintf("%q is a widget resource of the earlier build %s, so the server runs an older build than the one checked", uri, earlierBuild)
	}
	return audit.Finding{Subject: subject, Rule: rule, Severity: sev, Message: msg, Offset: -1,
		Fix: "rebuild the widgets, embed the new dist/ in the server and restart it; or pass --dist with the dist/ the server embeds"}
}
