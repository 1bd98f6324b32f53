package tools

// Builtin returns every built-in tool, ready for NewRegistry.
func Builtin() []Tool {
	return []Tool{
		ReadFile{},
		ListDir{},
		Glob{},
		Grep{},
		WriteFile{},
		EditFile{},
		ApplyPatch{},
		Shell{},
	}
}
