package assets

import "os"

// TypesEnv is the environment variable `widgetd types --from PKG` sets to
// "stdio" when it runs a server it built: the server should then serve MCP
// over its standard input and output instead of listening, so the tool
// list (and its schemas) can be read without a network. The adapters'
// ServeTypes functions check it.
const TypesEnv = "WIDGETD_TYPES"

// TypesRequested reports whether this process was started by `widgetd types
// --from` (TypesEnv is "stdio").
func TypesRequested() bool { return os.Getenv(TypesEnv) == "stdio" }
