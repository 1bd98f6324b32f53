package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/quire-sh/quire/tools"
)

// promptEnv is what the system prompt tells the model about where it is.
type promptEnv struct {
	Dir      string
	OS       string
	Date     time.Time
	Sandbox  string
	Approval string
	Tools    []tools.Spec
	// Instructions are more sections, each with its heading (Config).
	Instructions []string
	// Role is a child session's section (Config.Role).
	Role string
	// AgentsMD is the project's AGENTS.md, verbatim; empty when absent.
	AgentsMD string
}

// systemPrompt is the first message of every request. AGENTS.md is
// included byte for byte and never summarised: compaction rebuilds the
// history after it, not the prompt.
func systemPrompt(p promptEnv) string {
	var b strings.Builder
	b.WriteString("You are quire, a coding agent working in the user's terminal. You help with software engineering tasks in the project at the working directory: you read and search the code, edit files and run commands with the tools below, and answer in concise Markdown.\n\n")
	b.WriteString("Work like a careful senior engineer: read before you edit, keep changes minimal and in the project's style, run the relevant tests when you can, and say plainly what you did and what you did not verify. Call several independent tools in one answer when that is faster; they run in parallel. When a tool fails, read the error and adapt instead of repeating the same call. When the user denies a call, do not retry it; ask what they want instead.\n\n")
	if len(p.Tools) > 0 {
		b.WriteString("# Tools\n\n")
		for _, t := range p.Tools {
			desc := strings.TrimSpace(t.Description)
			if i := strings.IndexByte(desc, '\n'); i >= 0 {
				desc = desc[:i]
			}
			fmt.Fprintf(&b, "- %s: %s\n", t.Name, desc)
		}
		b.WriteString("\nMore tools may come and go during the session (named mcp__SERVER__TOOL: servers the user configured); their definitions, which are the servers' own words, say what they do.\n\n")
	}
	b.WriteString("# Environment\n\n")
	fmt.Fprintf(&b, "- Working directory: %s\n", p.Dir)
	fmt.Fprintf(&b, "- Operating system: %s\n", p.OS)
	fmt.Fprintf(&b, "- Date: %s\n", p.Date.Format("2006-01-02 (Monday)"))
	if p.Sandbox != "" {
		fmt.Fprintf(&b, "- Sandbox profile: %s (commands and file tools are confined by it; a refusal from the sandbox is final, not something to work around)\n", p.Sandbox)
	}
	if p.Approval != "" {
		fmt.Fprintf(&b, "- Approval mode: %s\n", p.Approval)
	}
	if r := strings.TrimSpace(p.Role); r != "" {
		b.WriteString("\n")
		b.WriteString(r)
		b.WriteString("\n")
	}
	for _, sec := range p.Instructions {
		if sec = strings.TrimSpace(sec); sec != "" {
			b.WriteString("\n")
			b.WriteString(sec)
			b.WriteString("\n")
		}
	}
	if p.AgentsMD != "" {
		b.WriteString("\n# Project instructions (AGENTS.md)\n\n")
		b.WriteString(p.AgentsMD)
		if !strings.HasSuffix(p.AgentsMD, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// readAgentsMD returns the AGENTS.md of dir verbatim, or "" when there is
// none.
func readAgentsMD(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "AGENTS.md"))
	if err != nil {
		return ""
	}
	return string(b)
}

func osName() string {
	return runtime.GOOS + "/" + runtime.GOARCH
}
