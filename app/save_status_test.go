package app

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
)

// While saving the session fails, the status line says so, and the
// notice is in the transcript; once saving works again the flag goes.
func TestStatusLineShowsUnsavedSession(t *testing.T) {
	m := newTestModel()
	text := "saving the session failed: no space left on device (/s/events.db); what follows is kept in memory until it can be saved"
	m.HandleEvent(event.Event{Kind: event.Notice, Level: "warn", Store: event.StoreFailing, Text: text}, t0)
	rows := screenText(m, 100, 12)
	if status := rows[11]; !strings.HasPrefix(status, "ready · not saved") {
		t.Errorf("status line %q, want it to say the session is not saved", status)
	}
	if !strings.Contains(strings.Join(rows, "\n"), "no space left on device") {
		t.Errorf("the notice is not shown:\n%s", strings.Join(rows, "\n"))
	}
	m.HandleEvent(event.Event{Kind: event.Notice, Level: "info", Store: event.StoreOK, Text: "the session is saved again"}, t0)
	if status := screenText(m, 100, 12)[11]; strings.Contains(status, "not saved") {
		t.Errorf("status line %q after saving works again", status)
	}
}
