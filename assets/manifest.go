package assets

// ManifestVersion is the schema version of dist/manifest.json that this package
// reads and the bundler writes. It changes only on incompatible changes; fields
// may be added within a version.
const ManifestVersion = 1

// ManifestFile is the name of the manifest inside a dist/ directory.
const ManifestFile = "manifest.json"

// MIME types of the two UI resource profiles.
const (
	// MIMETypeMCPApp is the MCP Apps (SEP-1865) resource MIME type.
	MIMETypeMCPApp = "text/html;profile=mcp-app"
	// MIMETypeSkybridge is the ChatGPT Apps SDK resource MIME type.
	MIMETypeSkybridge = "text/html+skybridge"
)

// Profile names as they appear in widget.json and the manifest.
const (
	// ProfileMCPApp selects the MCP Apps resource (text/html;profile=mcp-app).
	ProfileMCPApp = "mcp-app"
	// ProfileSkybridge selects the ChatGPT Apps SDK resource (text/html+skybridge).
	ProfileSkybridge = "skybridge"
)

// Manifest is the contents of dist/manifest.json: everything a server needs to
// offer the built widgets as MCP resources and to serve their files, without
// re-reading sources. It is written by the bundler and read by Load; servers in
// other languages can read it as plain JSON (see docs/manifest.md).
type Manifest struct {
	// Version is ManifestVersion at the time of writing.
	Version int `json:"version"`
	// Generator names the tool and version that wrote the manifest.
	Generator string `json:"generator"`
	// BuildID identifies this build: a hash over every widget's hash, so the same
	// sources always give the same ID.
	BuildID string `json:"buildId"`
	// PublicURL is the origin (and optional path prefix) the files are served
	// from in external mode; empty when every widget is self-contained.
	PublicURL string `json:"publicUrl,omitempty"`
	// Widgets lists the widgets of this build, sorted by name.
	Widgets []Widget `json:"widgets"`
	// Builds lists this build and the retained previous ones, newest first, so
	// hosts holding an old template URI keep getting content.
	Builds []Build `json:"builds"`
	// Files lists every servable file in dist/ (manifest excluded), sorted by path.
	Files []File `json:"files"`
}

// Widget describes one built widget of the current build.
type Widget struct {
	// Name is the widget's name, [a-z0-9-]+.
	Name string `json:"name"`
	// Title is the human-readable title (resource title).
	Title string `json:"title,omitempty"`
	// Description is the resource description.
	Description string `json:"description,omitempty"`
	// Hash is the content hash over everything the host renders: the HTML with
	// everything it loads, the CSP and the rendering metadata.
	Hash string `json:"hash"`
	// HTML is the dist/-relative path of the widget's HTML document.
	HTML string `json:"html"`
	// Inline is true when the HTML is self-contained (JS and CSS inlined).
	Inline bool `json:"inline"`
	// CSP is the Content-Security-Policy header value a host builds from the
	// declared domains under the MCP Apps spec construction.
	CSP string `json:"csp"`
	// Profiles holds one resource per profile the widget is offered under.
	Profiles []Resource `json:"profiles"`
	// Files lists the dist/-relative paths the HTML loads (external JS, CSS,
	// images, fonts), sorted; empty for a fully inline widget.
	Files []string `json:"files,omitempty"`
	// Bridge is how much of widgetd's client bridge the widget carries:
	// "full", "app" (the App adapter only) or "core" (the handshake core),
	// decided from its code (docs/bridge.md, "Bridge levels"). A
	// `widgetd dev` build injects the full bridge and names here the level
	// `widgetd build` gives the widget.
	Bridge string `json:"bridge,omitempty"`
	// BridgeReason says why the widget got that level, e.g. the module that
	// imports the widgetd API or mentions window.openai.
	BridgeReason string `json:"bridgeReason,omitempty"`
	// Licenses is the dist/-relative path of the licence comments taken out
	// of the widget's bundle (widgetd.json "legalComments": "file", the
	// default); empty when it has none or keeps them inline. The HTML does
	// not load it: it ships beside the widget for whoever redistributes it.
	Licenses string `json:"licenses,omitempty"`
}

// Resource is one MCP resource of a widget under one profile.
type Resource struct {
	// Profile is ProfileMCPApp or ProfileSkybridge.
	Profile string `json:"profile"`
	// URI is the content-hashed resource URI, e.g. ui://widget/counter.3f2a….html.
	URI string `json:"uri"`
	// AliasURI is the unhashed URI that always resolves to the current build.
	AliasURI string `json:"aliasUri"`
	// MIMEType is MIMETypeMCPApp or MIMETypeSkybridge.
	MIMEType string `json:"mimeType"`
	// ListMeta is the _meta object for the resources/list entry.
	ListMeta ResourceMeta `json:"listMeta"`
	// ReadMeta is the _meta object for the resources/read content item. The
	// bundler writes the same object as ListMeta: hosts differ on which of
	// the two they read (SEP-1865 prefers the content item).
	ReadMeta ResourceMeta `json:"readMeta"`
}

// Build records one build kept in dist/: its ID and the resources it offered.
type Build struct {
	// ID is the build's BuildID.
	ID string `json:"id"`
	// Widgets maps widget name to that build's widget hash.
	Widgets map[string]BuildWidget `json:"widgets"`
}

// BuildWidget is what a retained build needs to answer a read of an old URI.
type BuildWidget struct {
	// Hash is the widget hash in that build.
	Hash string `json:"hash"`
	// HTML is the dist/-relative path of that build's HTML document.
	HTML string `json:"html"`
	// URIs are that build's resource URIs, one per profile.
	URIs []string `json:"uris"`
}

// File is one servable file in dist/.
type File struct {
	// Path is the dist/-relative, slash-separated path.
	Path string `json:"path"`
	// Size is the identity (uncompressed) size in bytes.
	Size int64 `json:"size"`
	// SHA256 is the hex SHA-256 of the identity bytes.
	SHA256 string `json:"sha256"`
	// ContentType is the Content-Type to serve it with, charset included for text.
	ContentType string `json:"contentType"`
	// Immutable is true for content-hashed names that may be cached forever.
	Immutable bool `json:"immutable"`
	// Encodings lists precompressed variants, best first ("br" then "gzip").
	Encodings []Encoding `json:"encodings,omitempty"`
	// Builds lists the IDs of the retained builds that use this file.
	Builds []string `json:"builds"`
}

// Encoding is one precompressed variant of a File, stored beside it.
type Encoding struct {
	// Name is the Content-Encoding token: "br" or "gzip".
	Name string `json:"name"`
	// Path is the dist/-relative path of the encoded bytes (Path + ".br"/".gz").
	Path string `json:"path"`
	// Size is the encoded size in bytes.
	Size int64 `json:"size"`
	// SHA256 is the hex SHA-256 of the encoded bytes.
	SHA256 string `json:"sha256"`
}
