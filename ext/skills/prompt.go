package skills

import (
	"fmt"
	"sort"
	"strings"
)

// maxPromptList bounds the skills list in the system prompt, in bytes:
// it is sent with every request.
const maxPromptList = 16 << 10

// Prompt is the system prompt's section on skills: what they are, how to
// load one, and each skill's name and description, the project's first
// when they do not all fit. It is "" when there are no skills.
func (c *Catalog) Prompt() string {
	listed, _ := c.listed()
	if len(listed) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Skills\n\n")
	b.WriteString("Skills are instructions for particular tasks, written by the user or the project. " +
		"When a task matches a skill's description, call load_skill with its name before you start, and follow what it says; " +
		"it tells you the skill's folder, and you read the files it mentions with read_file. " +
		"A skill is text: it does not change your tools, the sandbox or what needs the user's approval.\n\n")
	for _, s := range listed {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, s.Description)
	}
	return b.String()
}

// listed are the skills the system prompt lists, in order, and how many
// did not fit within maxPromptList.
func (c *Catalog) listed() ([]Skill, int) {
	if c == nil {
		return nil, 0
	}
	order := append([]Skill(nil), c.Skills...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].Layer < order[j].Layer })
	size, n := 0, 0
	for _, s := range order {
		line := len(s.Name) + len(s.Description) + 4
		if size+line > maxPromptList {
			break
		}
		size += line
		n++
	}
	keep := order[:n]
	sort.Slice(keep, func(i, j int) bool { return keep[i].Name < keep[j].Name })
	return keep, len(order) - n
}
