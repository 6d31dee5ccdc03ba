package bundler

import (
	"os"
	"path/filepath"
)

// esbuild's resolver reads the package.json, tsconfig.json and jsconfig.json
// of the folders it resolves from, and of every folder above them, itself:
// no plugin sees those reads. A FIFO committed as package.json would block
// the build in esbuild forever. So before esbuild resolves an import from a
// folder, or loads a file, the containment checks that none of those files
// on the way up (nor the package.json of a bare import's package) is a FIFO,
// socket or device.

// checkResolverConfigs returns why esbuild may not resolve from dir (a
// resolver config file there or above is not a regular file), or nil; spec,
// when a bare package name, adds that package's package.json in every
// node_modules on the way.
func (c *containment) checkResolverConfigs(dir, spec string) error {
	pkg := ""
	if isBareSpecifier(spec) {
		pkg, _ = splitPackage(spec)
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
func (c *containment) checkConfigsIn(dir string) error {
	c.mu.Lock()
	done := c.configsOK[dir]
	c.mu.Unlock()
	if done {
		return nil
	}
	for _, name := range resolverConfigs {
		if err := c.checkSpecial(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	c.mu.Lock()
	c.configsOK[dir] = true
	c.mu.Unlock()
	return nil
}

// checkSpecial refuses p when it exists and is a FIFO, socket or device
// (a folder or a missing file is esbuild's to report).
func (c *containment) checkSpecial(p string) error {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() || st.Mode().IsRegular() {
		return nil
	}
	return regularOnly(c.display.Show(p), st.Mode())
}
