// Package weborigin gives the origin (scheme://host[:port]) of an absolute
// URL, parsed with net/url, for the places that trust or announce the origin
// of a configured public URL.
package weborigin

import "net/url"

// Of returns the scheme://host[:port] of the absolute URL u, or "" when u
// does not parse or names no scheme or host.
func Of(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}
