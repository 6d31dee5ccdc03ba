package bundler

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/widgetd/widgetd/bundler/internal/viteenv"
)

// import.meta.env's rules (Vite's .env files, their syntax, the VITE_
// prefix) are bundler/internal/viteenv; how a build reads those files and
// when is here.

// envDefines returns the Define entries for the project: process.env.NODE_ENV
// and import.meta.env. loadEnv must have run.
func (b *Builder) envDefines() map[string]string {
	d := map[string]string{"process.env.NODE_ENV": `"production"`}
	if b.reactRefresh {
		d["process.env.NODE_ENV"] = `"development"` // React's refresh hooks (refresh.go)
	}
	if b.env != nil {
		for k, v := range b.env.Defines() {
			d[k] = v
		}
	}
	return d
}

// loadEnv (re)reads the project's .env files; it runs once per build.
func (b *Builder) loadEnv() error {
	base := "/"
	if b.publicURL != "" {
		base = b.publicURL + "/"
	}
	e, err := viteenv.Load(b.projectDir(), base, os.Environ(), b.display, b.readEnvFile)
	if err != nil {
		return err
	}
	b.env = e
	return nil
}

// envKey summarises the env for the esbuild context key and the up-to-date
// check; "" before loadEnv.
func (b *Builder) envKey() string {
	if b.env == nil {
		return ""
	}
	return b.env.Key()
}

// EnvFiles returns the .env files a build of the project reads, whether or
// not they exist, so a watcher can rebuild when one appears or changes.
func (b *Builder) EnvFiles() []string {
	names := viteenv.Files()
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = filepath.Join(b.projectDir(), name)
	}
	return out
}

// readEnvFile reads a .env file for viteenv.Load the way config files are
// read: regular files only, at most maxConfigSize bytes; nil when absent.
func (b *Builder) readEnvFile(file string) ([]byte, error) {
	data, err := readRegular(filepath.Base(file), file, maxConfigSize)
	if err == nil && len(data) > maxConfigSize {
		err = fmt.Errorf("over %s; an env file is at most that", formatBytes(maxConfigSize))
	}
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", b.display.Show(file), unwrapPathErr(err))
	}
	if data == nil {
		data = []byte{} // present and empty
	}
	return data, nil
}
