package assets

import (
	"encoding/json"
	"slices"
	"strconv"
)

// Request _meta keys ChatGPT sends with tools/call (and openai/locale with
// initialize too), per OpenAI's Apps SDK reference.
const (
	// MetaLocale is the user's BCP 47 locale.
	MetaLocale = "openai/locale"
	// MetaLocaleLegacy is the key older ChatGPT clients send the locale in.
	MetaLocaleLegacy = "webplus/i18n"
	// MetaUserAgent is the user's user agent, best effort.
	MetaUserAgent = "openai/userAgent"
	// MetaUserLocation is the user's coarse location.
	MetaUserLocation = "openai/userLocation"
	// MetaSubject is an anonymized user id.
	MetaSubject = "openai/subject"
	// MetaSession is an anonymized conversation id.
	MetaSession = "openai/session"
	// MetaOrganization is an anonymized organization id, when there is one.
	MetaOrganization = "openai/organization"
)

// ClientHints are what a host says about its user with a request. They are
// hints: use them to localize, format or rate-limit, never to authorize (any
// client can send any value). A key the host did not send, or sent with a
// value of another type, leaves its field zero.
type ClientHints struct {
	// Locale is openai/locale (or the legacy webplus/i18n), e.g. "en-US".
	Locale string
	// UserAgent is openai/userAgent.
	UserAgent string
	// Location is openai/userLocation; nil when not sent.
	Location *UserLocation
	// Subject is openai/subject, an anonymized user id.
	Subject string
	// Session is openai/session, an anonymized conversation id.
	Session string
	// Organization is openai/organization, an anonymized organization id.
	Organization string
}

// UserLocation is the coarse location in openai/userLocation. Every field is
// optional.
type UserLocation struct {
	City     string
	Region   string
	Country  string
	Timezone string
	// Latitude and Longitude are nil when absent. Hosts have been seen
	// sending them as numbers and as decimal strings; both are read.
	Latitude  *float64
	Longitude *float64
}

// ClientHintsFromMeta reads the hints from a request's _meta as the SDKs
// decode it (a nil map gives the zero ClientHints). The adapters wrap it:
// gosdk.ClientHints and mcpgo.ClientHints.
func ClientHintsFromMeta(meta map[string]any) ClientHints {
	h := ClientHints{
		Locale:       hintString(meta[MetaLocale]),
		UserAgent:    hintString(meta[MetaUserAgent]),
		Subject:      hintString(meta[MetaSubject]),
		Session:      hintString(meta[MetaSession]),
		Organization: hintString(meta[MetaOrganization]),
	}
	if h.Locale == "" {
		h.Locale = hintString(meta[MetaLocaleLegacy])
	}
	if loc, ok := jsonObject(meta[MetaUserLocation]); ok {
		h.Location = &UserLocation{
			City: hintString(loc["city"]), Region: hintString(loc["region"]), Country: hintString(loc["country"]), Timezone: hintString(loc["timezone"]),
			Latitude: hintNumber(loc["latitude"]), Longitude: hintNumber(loc["longitude"]),
		}
	}
	return h
}

// hintString returns v when it is a string, else "".
func hintString(v any) string {
	s, _ := v.(string)
	return s
}

// hintNumber returns v as a float when it is a JSON number or a decimal string.
func hintNumber(v any) *float64 {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case json.Number:
		var err error
		if f, err = n.Float64(); err != nil {
			return nil
		}
	case string:
		var err error
		if f, err = strconv.ParseFloat(n, 64); err != nil {
			return nil
		}
	default:
		return nil
	}
	return &f
}

// jsonObject returns v as a decoded JSON object. A value an in-process
// caller built as a struct or typed map is decoded through its JSON form.
func jsonObject(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case nil:
		return nil, false
	case map[string]any:
		return m, true
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// SupportsUI reports whether a client's capability extensions (the
// capabilities.extensions map of its initialize request, or of a request's
// _meta under the 2026-07-28 protocol) advertise MCP Apps: ExtensionID with
// a mimeTypes list naming MIMETypeMCPApp, as the MCP Apps specification
// (2026-01-26) has servers check before offering UI tools. A server can
// offer a text-only variant of a tool to a client without it. The adapters
// wrap it: gosdk.SupportsUI and mcpgo.SupportsUI.
func SupportsUI(extensions map[string]any) bool {
	// Through JSON, so a value an in-process client built as a typed map or
	// struct reads like a decoded one.
	data, err := json.Marshal(extensions[ExtensionID])
	if err != nil {
		return false
	}
	var ui struct {
		MimeTypes []string `json:"mimeTypes"`
	}
	return json.Unmarshal(data, &ui) == nil && slices.Contains(ui.MimeTypes, MIMETypeMCPApp)
}
