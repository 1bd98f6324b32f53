package patch

import "strings"

// unwrap recognises a wrapper around the patch, lines[first] and
// lines[last], and returns the lines inside it. Two wrappers are known:
//
//   - a shell heredoc, as models used to running apply_patch as a command
//     write it: "<<'EOF'", "<<EOF", "<<\"EOF\"" or "<<-EOF", optionally
//     after "apply_patch" or "applypatch", and that after "cd DIR &&" (or
//     "cd DIR;"), ended by a line holding just the tag; dir is DIR;
//   - a Markdown code fence: "```" with an optional language, ended by
//     "```".
func unwrap(lines []string, first, last int) (inFirst, inLast int, dir string, ok bool) {
	if first >= last {
		return first, last, "", false
	}
	head, tail := strings.TrimSpace(lines[first]), strings.TrimSpace(lines[last])
	if lang, isFence := strings.CutPrefix(head, "```"); isFence && tail == "```" && !strings.ContainsAny(lang, "` \t") {
		return first + 1, last - 1, "", true
	}
	tag, dir, isHeredoc := heredocStart(head)
	if !isHeredoc || tail != tag {
		return first, last, "", false
	}
	return first + 1, last - 1, dir, true
}

// heredocStart parses "[cd DIR && ][apply_patch ]<<[-]['\"]TAG['\"]".
func heredocStart(s string) (tag, dir string, ok bool) {
	if rest, isCd := strings.CutPrefix(s, "cd "); isCd {
		d, rest, isWord := shellWord(strings.TrimLeft(rest, " \t"))
		if !isWord {
			return "", "", false
		}
		rest = strings.TrimLeft(rest, " \t")
		if after, isAnd := strings.CutPrefix(rest, "&&"); isAnd {
			rest = after
		} else if after, isSemi := strings.CutPrefix(rest, ";"); isSemi {
			rest = after
		} else {
			return "", "", false
		}
		s, dir = strings.TrimLeft(rest, " \t"), d
	}
	command := false
	for _, name := range []string{"apply_patch", "applypatch"} {
		if rest, isCmd := strings.CutPrefix(s, name); isCmd && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '<') {
			s, command = strings.TrimLeft(rest, " \t"), true
			break
		}
	}
	if dir != "" && !command {
		return "", "", false
	}
	rest, isHeredoc := strings.CutPrefix(s, "<<")
	if !isHeredoc {
		return "", "", false
	}
	rest = strings.TrimLeft(strings.TrimPrefix(rest, "-"), " \t")
	if len(rest) >= 2 && (rest[0] == '\'' || rest[0] == '"') && rest[len(rest)-1] == rest[0] {
		rest = rest[1 : len(rest)-1]
	}
	if rest == "" || strings.IndexFunc(rest, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) >= 0 {
		return "", "", false
	}
	return rest, dir, true
}

// shellWord splits one shell word off s: quoted with ' or ", or running
// to whitespace, '&' or ';'.
func shellWord(s string) (word, rest string, ok bool) {
	if s == "" {
		return "", "", false
	}
	if q := s[0]; q == '\'' || q == '"' {
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", false
		}
		return s[1 : 1+end], s[2+end:], end > 0
	}
	end := strings.IndexAny(s, " \t&;")
	if end < 0 {
		end = len(s)
	}
	return s[:end], s[end:], end > 0
}
