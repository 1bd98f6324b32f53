package skills

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/quire-sh/quire/ext/frontmatter"
)

const (
	// maxCommandBody bounds a command's body: it is sent whole as a
	// prompt, so a larger one is refused rather than cut.
	maxCommandBody = 256 << 10
	// summaryPeek is how much of a body without a description is read to
	// take its first line as the summary.
	summaryPeek = 4 << 10
	// maxHint bounds an argument-hint, in characters.
	maxHint = 80
	// maxSummary bounds a summary taken from a body's first line.
	maxSummary = 120
)

// commandFront is what a command file's frontmatter says that quire uses;
// other keys (allowed-tools, model, …) are ignored, as a skill's are.
type commandFront struct {
	Description  string `yaml:"description"`
	ArgumentHint string `yaml:"argument-hint"`
}

// scanCommands adds the NAME.md files of r; seen maps the names found so
// far to their index in c.Commands.
func (c *Catalog) scanCommands(r root, seen map[string]int) {
	for _, e := range c.readDir(r) {
		fname := e.Name()
		if fname[0] == '.' || !strings.HasSuffix(fname, ".md") {
			continue
		}
		path := filepath.Join(r.dir, fname)
		cmd, err := readCommand(path)
		if err != nil {
			c.notice("%s: %v; the command is skipped", c.show.path(path), err)
			continue
		}
		cmd.Layer, cmd.Path, cmd.Shown = r.layer, path, c.show.path(path)
		if i, ok := seen[cmd.Name]; ok {
			c.Commands[i].Shadows = append(c.Commands[i].Shadows, Shadowed{Layer: cmd.Layer, Shown: cmd.Shown})
			continue
		}
		seen[cmd.Name] = len(c.Commands)
		c.Commands = append(c.Commands, cmd)
	}
}

// readCommand reads the frontmatter and the start of the command file at
// path and checks them.
func readCommand(path string) (Command, error) {
	name := strings.TrimSuffix(filepath.Base(path), ".md")
	if err := checkName(name, true); err != nil {
		return Command{}, err
	}
	d, err := frontmatter.ReadFile(path, summaryPeek)
	if err != nil {
		return Command{}, unwrapPath(err)
	}
	var f commandFront
	if err := d.Decode(&f); err != nil {
		return Command{}, err
	}
	cmd := Command{Name: name, Description: oneLine(f.Description), ArgumentHint: oneLine(f.ArgumentHint)}
	if n := len([]rune(cmd.Description)); n > maxDescription {
		return Command{}, fmt.Errorf("the description is %d characters long; at most %d fit", n, maxDescription)
	}
	if n := len([]rune(cmd.ArgumentHint)); n > maxHint {
		return Command{}, fmt.Errorf("the argument-hint is %d characters long; at most %d fit", n, maxHint)
	}
	if cmd.Description == "" {
		cmd.Description = firstLine(d.Body)
	}
	if len(bytes.TrimSpace(d.Body)) == 0 && !d.Truncated {
		return Command{}, errors.New("the command has no text to send")
	}
	return cmd, nil
}

// firstLine is a body's first line of text, heading marks taken off, as
// a summary for /help.
func firstLine(body []byte) string {
	for _, l := range strings.Split(string(body), "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
		if l == "" {
			continue
		}
		l = oneLine(l)
		if r := []rune(l); len(r) > maxSummary {
			l = string(r[:maxSummary-1]) + "…"
		}
		return l
	}
	return ""
}

// Expand reads the command's file afresh (an edit takes effect at once)
// and returns the prompt it sends for args, the text the user typed
// after its name.
func (cmd Command) Expand(args string) (string, error) {
	d, err := frontmatter.ReadFile(cmd.Path, maxCommandBody)
	if err != nil {
		return "", fmt.Errorf("/%s: %s: %w", cmd.Name, cmd.Shown, unwrapPath(err))
	}
	var f commandFront
	if err := d.Decode(&f); err != nil {
		return "", fmt.Errorf("/%s: %s: %w", cmd.Name, cmd.Shown, err)
	}
	if d.Truncated {
		return "", fmt.Errorf("/%s: %s is larger than %d KiB, too large to send as a prompt", cmd.Name, cmd.Shown, maxCommandBody>>10)
	}
	body := strings.Trim(string(d.Body), "\r\n")
	if strings.TrimSpace(body) == "" {
		return "", fmt.Errorf("/%s: %s has no text to send", cmd.Name, cmd.Shown)
	}
	return Expand(body, args), nil
}

// Expand puts the arguments into a command's body: $ARGUMENTS is all of
// args (trimmed), $1 to $9 its words (quotes group words; a missing word
// is empty). The body is scanned once, so text the arguments bring in is
// never replaced again. A body with no placeholder gets non-empty
// arguments after a blank line, so nothing typed is dropped.
func Expand(body, args string) string {
	args = strings.TrimSpace(args)
	var words []string
	var b strings.Builder
	used := false
	for i := 0; i < len(body); i++ {
		if body[i] != '$' {
			b.WriteByte(body[i])
			continue
		}
		rest := body[i+1:]
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS"):
			b.WriteString(args)
			i += len("ARGUMENTS")
			used = true
		case len(rest) > 0 && rest[0] >= '1' && rest[0] <= '9':
			if words == nil {
				words = splitWords(args)
			}
			if n := int(rest[0] - '1'); n < len(words) {
				b.WriteString(words[n])
			}
			i++
			used = true
		default:
			b.WriteByte('$')
		}
	}
	if !used && args != "" {
		b.WriteString("\n\n")
		b.WriteString(args)
	}
	return b.String()
}

// splitWords splits arguments at white space; a part in double or single
// quotes is one word, without its quotes.
func splitWords(s string) []string {
	words := []string{}
	var w strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}
