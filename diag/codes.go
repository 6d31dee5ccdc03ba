package diag

// Codes of the diagnostics the build's own limits produce (Diagnostic.Code);
// widgetd check reports each as the rule of that name.
const (
	// CodeOutsideProject: a reference resolves outside the project.
	CodeOutsideProject = "build-outside-project"
	// CodeSourceTooLarge: a source file is over maxSourceSize.
	CodeSourceTooLarge = "build-source-too-large"
	// CodeHTMLBudget: a widget's HTML is over htmlBudget.
	CodeHTMLBudget = "build-html-budget"
	// CodeNotRegularFile: a reference names a FIFO, socket or device,
	// which a build never opens (it could block it, or never end).
	CodeNotRegularFile = "build-not-regular-file"
)
