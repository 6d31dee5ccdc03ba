package devserver

import "slices"

// The preview's host emulations, by canonical name (docs/dev.md "Hosts").
const (
	// HostMCPApps is the generic MCP Apps host: the real ext-apps AppBridge
	// answering ui/*.
	HostMCPApps = "mcp-apps"
	// HostChatGPT is ChatGPT as of 2026: the AppBridge answers ui/* and the
	// widget frame also has window.openai.
	HostChatGPT = "chatgpt"
	// HostChatGPTLegacy is ChatGPT before it answered ui/*: window.openai
	// only, ui/initialize is never answered.
	HostChatGPTLegacy = "chatgpt-legacy"
	// HostClaude is the AppBridge with Claude's hostInfo, capabilities, host
	// context and ui.domain rule.
	HostClaude = "claude"
)

// PreviewHosts returns the canonical names of every host the preview
// emulates, in menu order.
func PreviewHosts() []string {
	return []string{HostMCPApps, HostChatGPT, HostChatGPTLegacy, HostClaude}
}

// CanonicalHost maps a host name as users write it to its canonical name:
// "mcp" (the name before the four hosts, kept so URLs, fixtures and scripts
// keep working) is HostMCPApps. ok is false for an unknown name.
func CanonicalHost(name string) (canonical string, ok bool) {
	if name == "mcp" {
		return HostMCPApps, true
	}
	return name, slices.Contains(PreviewHosts(), name)
}

// HostHasOpenAI reports whether the host installs window.openai in the
// widget frame (both ChatGPT hosts).
func HostHasOpenAI(host string) bool {
	h, _ := CanonicalHost(host)
	return h == HostChatGPT || h == HostChatGPTLegacy
}

// HostAnswersUI reports whether the host answers ui/* with the AppBridge
// (every host but chatgpt-legacy).
func HostAnswersUI(host string) bool {
	h, ok := CanonicalHost(host)
	return ok && h != HostChatGPTLegacy
}
