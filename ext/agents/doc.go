// Package agents reads agent definitions, the roles a task call can run
// its child session as. A definition is a markdown file with frontmatter:
//
//	---
//	name: reviewer
//	description: Reviews a change for bugs and missing tests; give it the files.
//	tools: [read_file, grep, glob, "mcp__github__*"]
//	model: anthropic/claude-sonnet-4-5
//	---
//	You review code. Report each problem with its file and line, ...
//
// Load finds them in the working directory's .quire/agents/, the
// repository root's, then the user's config dir (agents/), a name found
// earlier hiding the same name later. A file that cannot be used (no
// frontmatter, no description, a bad name or tool pattern, too large) is
// one notice naming the file and the problem, and is skipped; keys the
// package does not know are ignored, so files written for other agents
// read. A definition may name a persona (persona: NAME), behaviour
// several agents share in personas/NAME.md, found in the same places;
// ReadPersona reads it when a child is spawned and fails rather than
// skip, since a persona is the child's core behaviour. Resolve is the
// per-field cascade of a child's settings: the task call's explicit
// value, then the role's, then the persona's, then the parent's.
//
// The package is pure: it reads files and returns values, and knows
// nothing of sessions, providers or tools.
package agents
