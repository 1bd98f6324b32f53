package session

import (
	"os"
	"path/filepath"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/config"
)

// AppOptions are the app's options the settings give: the look, the
// input, the terminal recording, the prompt history file and the status
// line. Replay starts from these too.
func AppOptions(cfg *config.Config) app.Options {
	return app.Options{
		Theme:        cfg.Theme,
		Minimal:      cfg.Minimal,
		Mouse:        cfg.Mouse,
		Bell:         cfg.Bell,
		DrawInterval: cfg.DrawInterval,
		Record:       cfg.Record,
		HistoryFile:  filepath.Join(config.StateDir(os.Getenv), "history.jsonl"),
		Status:       app.Status{Model: cfg.Model, Sandbox: cfg.Sandbox, Approval: cfg.Approval},
	}
}

// AppOptions are the app's options for this session: the settings', the
// working directory, the custom commands and skills found there, and for
// a resumed session the turns its first screen shows.
func (h *Handle) AppOptions() app.Options {
	h.ops.Lock()
	cfg := h.opt.Config
	label := h.label
	h.ops.Unlock()
	h.mu.Lock()
	switch { // with the project's trusted settings
	case h.cur != nil && h.cur.Config != nil:
		cfg = h.cur.Config
	case h.opened != nil:
		cfg = h.opened
	}
	h.mu.Unlock()
	opt := AppOptions(cfg)
	opt.Cwd, opt.Prior = h.dir, h.tail
	if label != "" {
		opt.Status.Model = label
	}
	opt.Commands, opt.Skills = h.opt.ext.commands, h.opt.ext.skillList()
	return opt
}
