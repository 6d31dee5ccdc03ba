package main

import "github.com/widgetd/widgetd/bundler"

// version is what widgetd version prints: bundler.Version (the version
// manifests record) for a build from source, and the release's version for a
// binary scripts/release builds, which sets it with
// -ldflags "-X main.version=0.1.0" (a pre-release such as
// 0.1.0-dev.g1a2b3c4 between tags). It is a variable only so the linker can
// set it; nothing assigns it at run time.
var version = bundler.Version
