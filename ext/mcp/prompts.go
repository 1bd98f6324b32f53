package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// PromptCommand is a server's prompt as a slash command:
// /mcp__SERVER__PROMPT [ARG…], named like tools (ToolName).
type PromptCommand struct {
	// Name is the command without its slash.
	Name        string
	Server      string
	Prompt      string
	Description string
	// Args are the prompt's arguments in order, "?" marking optional ones.
	Args []string
}

// Usage is the command with its arguments, for /help and /mcp.
func (p PromptCommand) Usage() string {
	u := "/" + p.Name
	for _, a := range p.Args {
		u += " " + a
	}
	return u
}

func (s *server) promptCommands() []PromptCommand {
	s.mu.Lock()
	prompts := s.prompts
	s.mu.Unlock()
	out := make([]PromptCommand, 0, len(prompts))
	seen := map[string]bool{}
	for _, p := range prompts {
		name, _ := ToolName(s.name, p.Name)
		if seen[name] {
			continue
		}
		seen[name] = true
		c := PromptCommand{Name: name, Server: s.name, Prompt: p.Name, Description: oneLine(p.Description, 120)}
		for _, a := range p.Arguments {
			if a == nil {
				continue
			}
			arg := cleanName(a.Name)
			if !a.Required {
				arg += "?"
			}
			c.Args = append(c.Args, arg)
		}
		out = append(out, c)
	}
	return out
}

// Prompts lists the prompts of the ready servers as commands, sorted.
func (m *Manager) Prompts() []PromptCommand {
	var out []PromptCommand
	for _, s := range m.servers {
		if s.status().State == Ready {
			out = append(out, s.promptCommands()...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// RunPrompt gets the prompt behind a /mcp__SERVER__PROMPT command with
// the words typed after it and returns its messages as one text, to be
// sent as the user's message. Words fill the prompt's arguments in
// order, the last taking the rest; NAME=value sets one by name.
func (m *Manager) RunPrompt(ctx context.Context, command string, words []string) (string, error) {
	for _, s := range m.servers {
		for _, c := range s.promptCommands() {
			if c.Name != command {
				continue
			}
			return s.getPrompt(ctx, c, words)
		}
	}
	return "", fmt.Errorf("/%s: no such MCP prompt (/mcp lists them)", Printable(command))
}

func (s *server) getPrompt(ctx context.Context, c PromptCommand, words []string) (string, error) {
	sess := s.session()
	if sess == nil {
		return "", errors.New(s.down())
	}
	s.mu.Lock()
	var declared []*sdk.PromptArgument
	for _, p := range s.prompts {
		if p.Name == c.Prompt {
			declared = p.Arguments
		}
	}
	s.mu.Unlock()
	args := map[string]string{}
	var positional []string
	for _, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok && isArg(declared, k) {
			args[k] = v
			continue
		}
		positional = append(positional, w)
	}
	// The arguments not set by name take the words in order, the last of
	// them every word left.
	var free []*sdk.PromptArgument
	for _, a := range declared {
		if a == nil {
			continue
		}
		if _, set := args[a.Name]; !set {
			free = append(free, a)
		}
	}
	if len(free) == 0 && len(positional) > 0 {
		return "", fmt.Errorf("%s takes no more words than that", c.Usage())
	}
	for i, a := range free {
		if i >= len(positional) {
			break
		}
		args[a.Name] = positional[i]
		if i == len(free)-1 {
			args[a.Name] = strings.Join(positional[i:], " ")
		}
	}
	var missing []string
	for _, a := range declared {
		if a != nil && a.Required && args[a.Name] == "" {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("%s needs %s", c.Usage(), strings.Join(missing, ", "))
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.ToolTimeout)
	defer cancel()
	res, err := sess.GetPrompt(ctx, &sdk.GetPromptParams{Name: c.Prompt, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("MCP server %s: %s", s.name, oneLine(err.Error(), 300))
	}
	var b strings.Builder
	for _, msg := range res.Messages {
		if msg == nil || msg.Content == nil {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		writeContent(&b, msg.Content)
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("MCP server %s: prompt %s has no text", s.name, Printable(c.Prompt))
	}
	text, _ := bound(b.String())
	return text, nil
}

func isArg(declared []*sdk.PromptArgument, k string) bool {
	for _, a := range declared {
		if a != nil && a.Name == k {
			return true
		}
	}
	return false
}
