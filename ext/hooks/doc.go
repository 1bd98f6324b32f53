// Package hooks runs the user's hooks: their own programs, started at
// points of a session's life (the events engine.Hooks names). Hooks are
// defined in hooks.json files with the structure other agents'
// settings.json uses for theirs:
//
//	{"hooks": {"PreToolUse": [{"matcher": "shell|write_file",
//	  "hooks": [{"type": "command", "command": "./check.sh", "timeout": 30}]}]}}
//
// The user's file (hooks.json in quire's config dir) is read first, then
// a project's .quire/hooks.json, which the session uses only once the
// user has trusted its content (package trust). A command defined more
// than once runs once. A matcher is a regular expression that must match
// the whole tool name (MCP tools by their full name), or the trigger of
// SessionStart and the compaction events; "" and "*" match everything.
//
// A hook runs as `sh -c COMMAND` in the session's directory, as the user
// and outside the sandbox, with the event as JSON on stdin and its
// output bounded; its environment is quire's, then the hook's own env,
// then the identity variables (QUIRE_SESSION_ID, QUIRE_PROJECT_DIR,
// QUIRE_HOOK_EVENT, QUIRE_TOOL_NAME, CLAUDE_PROJECT_DIR), one entry per
// name, so no definition can forge them. A hook is stopped, with its
// process group, at its timeout (default 60 s).
//
// Only PreToolUse hooks decide anything: a JSON decision on stdout
// ({"decision": "deny", "reason": …}, or hookSpecificOutput's
// permissionDecision) comes first, then exit status 2 refuses the call
// with stderr as the reason. A refusal's reason is all of a hook's
// output the model ever sees. Hooks fail open: one that times out,
// crashes, is not found or prints JSON that is not a decision lets the
// call go ahead, and the user is told which. Observed events are queued,
// boundedly, and their hooks run one event at a time off the session's
// goroutine.
package hooks
