package bundler

import "github.com/widgetd/widgetd/bundler/internal/tsconfig"

// jsxConfig is the JSX part of the tsconfig.json or jsconfig.json nearest
// to a folder (bundler/internal/tsconfig reads it).
type jsxConfig = tsconfig.JSX

// jsxConfig returns (and caches for the build) the JSX settings for dir,
// read through the build's bounded reader.
func (c *compilers) jsxConfig(dir string) *jsxConfig {
	c.mu.Lock()
	cfg := c.configs[dir]
	c.mu.Unlock()
	if cfg != nil {
		return cfg
	}
	jsx := tsconfig.NearestJSX(dir, readBounded)
	cfg = &jsx
	c.mu.Lock()
	if c.configs != nil {
		c.configs[dir] = cfg
	}
	c.mu.Unlock()
	return cfg
}
