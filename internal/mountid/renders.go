package mountid

import (
	"bytes"
	"regexp"
)

// renderTokens are what code that puts anything on the page contains: DOM
// writes and element lookups (every framework's runtime has several of
// them). The client bridge uses none of them, except the two calls
// bridgeUses lists.
var renderTokens = [][]byte{
	[]byte("createElement("), []byte("createElementNS("), []byte("getElementById("), []byte("querySelector("),
	[]byte("querySelectorAll("), []byte("getElementsBy"), []byte("innerHTML"), []byte("outerHTML"),
	[]byte("appendChild("), []byte("insertBefore("), []byte("insertAdjacent"), []byte("replaceChildren("),
	[]byte("createTextNode("), []byte("cloneNode("), []byte("importNode("), []byte("attachShadow("),
	[]byte("customElements"), []byte(".prepend("), []byte(".replaceWith("), []byte("document.write("),
	[]byte("innerText="), []byte("body.textContent"), []byte("body.append("),
}

// bridgeUses are the render-like calls of the client bridge itself (its
// font stylesheet), which every widget holds and which render nothing.
var bridgeUses = [][]byte{[]byte(`createElement("style")`), []byte(`getElementById("widgetd-fonts")`)}

var (
	bodyRE = regexp.MustCompile(`(?is)<body[^>]*>(.*?)(?:</body>|$)`)
	// inertRE matches what renders nothing in a body: scripts, styles,
	// templates, comments, and <div>s with an id and no content (an empty
	// mount element; an empty div without an id is a styled box).
	inertRE = regexp.MustCompile(`(?is)<script\b.*?</script\s*>|<style\b.*?</style\s*>|<template\b.*?</template\s*>|<noscript\b.*?</noscript\s*>|<!--.*?-->|<link\b[^>]*>|<div\s[^>]*\bid\s*=[^>]*>\s*</div\s*>`)
)

// RendersNothing reports whether a widget document (html) and its code (js,
// the scripts the document runs) put nothing on the page: the body holds
// no content besides scripts and empty elements, and the code neither
// writes to the DOM nor looks an element up. A component entry that
// nothing mounts builds to exactly this (the component is tree-shaken
// away, the bridge remains).
func RendersNothing(html, js []byte) bool {
	body := html
	if m := bodyRE.FindSubmatch(html); m != nil {
		body = m[1]
	}
	if len(bytes.TrimSpace(inertRE.ReplaceAll(body, nil))) > 0 {
		return false
	}
	return !CodeRenders(js)
}

// CodeRenders reports whether js writes to the DOM or looks up an element
// (anything beyond what the client bridge does).
func CodeRenders(js []byte) bool {
	for _, t := range renderTokens {
		n := bytes.Count(js, t)
		for _, b := range bridgeUses {
			if bytes.HasPrefix(b, t) {
				n -= bytes.Count(js, b)
			}
		}
		if n > 0 {
			return true
		}
	}
	return false
}
