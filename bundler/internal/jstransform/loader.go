package jstransform

import (
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// LoaderFor picks esbuild's loader for a script by its extension.
func LoaderFor(p string) api.Loader {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	case ".jsx":
		return api.LoaderJSX
	}
	return api.LoaderJS
}
