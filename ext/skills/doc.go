// Package skills finds the prompt-layer packs users share: skills
// (folders holding a SKILL.md) and custom slash commands (markdown files).
// Both are text for the model; nothing in them runs.
//
// Discover looks in the places the precedence names, highest first: the
// working directory, the repository root, the user's config dir, the
// configured paths ([skills] paths) and the built-in skills. A skill in
// a project is .quire/skills/NAME/SKILL.md, or under .agents/skills or
// .claude/skills for packs written for other agents; a command is
// .quire/commands/NAME.md in a project and commands/NAME.md in the
// user's config dir. A name found twice is the higher one's, and the
// Catalog says what it shadowed. A file that cannot be read or is
// malformed is one notice naming the file and the problem, and is
// skipped; everything else loads.
//
// Only a skill's name and description reach the system prompt (Prompt),
// each bounded; its body is loaded when the model asks, by the load_skill
// tool (LoadTool), which reads the file afresh and bounds what it
// returns. A command's body is read when it is run, with $ARGUMENTS and
// $1 to $9 replaced by what the user typed after its name (Expand).
package skills
