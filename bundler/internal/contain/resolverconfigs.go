package contain

import (
	"os"
	"path/filepath"

	"github.com/widgetd/widgetd/bundler/internal/specifier"
	"github.com/widgetd/widgetd/bundler/internal/tsconfig"
)

// esbuild's resolver reads the package.json, tsconfig.json and jsconfig.json
// of the folders it resolves from, and of every folder above them, itself:
// no plugin sees those reads. A FIFO committed as package.json would block
// the build in esbuild forever. So before esbuild resolves an import from a
// folder, or loads a file, the containment checks that none of those files
// on the way up (nor the package.json of a bare import's package, nor a file
// a tsconfig.json or jsconfig.json "extends", which esbuild opens too) is a
// FIFO, socket or device.

// ResolverConfigs are the files esbuild consults in a folder while
// resolving and compiling the files below it.
var ResolverConfigs = []string{"package.json", "tsconfig.json", "jsconfig.json"}

// checkResolverConfigs returns why esbuild may not resolve from dir (a
// resolver config file there or above is not a regular file), or nil; spec,
// when a bare package name, adds that package's package.json in every
// node_modules on the way.
func (c *Reader) checkResolverConfigs(dir, spec string) error {
	pkg := ""
	if specifier.IsBare(spec) {
		pkg, _ = specifier.SplitPackage(spec)
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if err := c.checkConfigsIn(d); err != nil {
			return err
		}
		if pkg != "" {
			if err := c.checkSpecial(filepath.Join(d, "node_modules", filepath.FromSlash(pkg), "package.json")); err != nil {
				return err
			}
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// checkConfigsIn checks dir's resolver configs once per build.
func (c *Reader) checkConfigsIn(dir string) error {
	c.mu.Lock()
	done := c.configsOK[dir]
	c.mu.Unlock()
	if done {
		return nil
	}
	for _, name := range ResolverConfigs {
		if err := c.checkSpecial(filepath.Join(dir, name)); err != nil {
			return err
		}
		if name != "package.json" {
			if err := c.checkExtends(filepath.Join(dir, name), 0); err != nil {
				return err
			}
		}
	}
	c.mu.Lock()
	c.configsOK[dir] = true
	c.mu.Unlock()
	return nil
}

// checkSpecial refuses p when it exists and is a FIFO, socket or device
// (a folder or a missing file is esbuild's to report).
func (c *Reader) checkSpecial(p string) error {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() || st.Mode().IsRegular() {
		return nil
	}
	return regularOnly(c.display.Show(p), st.Mode())
}

// checkExtends checks the files the tsconfig or jsconfig at file "extends"
// (a path, a list of paths, or a package's config), and theirs in turn up to
// tsconfig.MaxExtends deep, the way checkSpecial checks the config itself. A file
// that cannot be read or parsed is esbuild's to report.
func (c *Reader) checkExtends(file string, depth int) error {
	if depth >= tsconfig.MaxExtends {
		return nil
	}
	data, err := ReadBounded(file)
	if err != nil {
		return nil
	}
	for _, parent := range tsconfig.Extends(data) {
		for _, p := range tsconfig.ExtendsCandidates(filepath.Dir(file), parent) {
			if err := c.checkSpecial(p); err != nil {
				return err
			}
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				if err := c.checkExtends(p, depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
