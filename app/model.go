package app

import (
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/scrollback"
)

// focus says which layer below the overlays receives keys.
type focus uint8

const (
	focusPrompt focus = iota // typing goes to the prompt editor
	focusPager               // less keys move over the transcript
)

// inputLine is a one-line text field shown in place of the prompt: the
// search pattern, the filter pattern, the reason for a denial, the Ctrl+R
// query.
type inputLine struct {
	kind  inputKind
	label string
	ed    Editor
}

type inputKind uint8

const (
	inputNone inputKind = iota
	inputSearch
	inputFilter
	inputDenyReason
	inputHistory
)

// Status is what the status line reports about the session.
type Status struct {
	Model    string
	Sandbox  string
	Approval string
	Demo     bool // the model is the built-in demo script
	Replay   bool // the transcript is a recording being played back
	// ShiftEnter: the terminal sends Shift+Enter apart from Enter, so the
	// prompt advertises it for a newline (Ctrl+J works everywhere).
	ShiftEnter bool
	// Bell rings the terminal's bell when quire needs the user (an
	// approval waits, a turn ended) while its window is not focused.
	Bell bool
}

// Model is the app's central state. Every change happens on the loop's
// goroutine through HandleInput, HandleEvent and Tick, which return the
// effects to run; nothing here does I/O, so every behaviour is a unit test.
type Model struct {
	tr *scrollback.Transcript
	// newTranscript builds a transcript like tr holding prior events, for
	// a session swapped in by /clear or /rewind.
	newTranscript func(prior []event.Event) *scrollback.Transcript
	editor        Editor
	history       *History
	status        Status
	// cwd is the session's working directory, for @path completion ("":
	// the process's).
	cwd string
	// commands are the /commands from outside the app's table (checked
	// by CheckCommands), skills the /skills list.
	commands []Command
	skills   []SkillInfo
	// switching is set while an operation replaces the session; prompts
	// wait in the editor until it is done. switchingLabel says what runs.
	switching      bool
	switchingLabel string

	focus   focus
	minimal bool
	input   inputLine
	// overlay is text shown over the transcript (help, the session list)
	// until any key closes it.
	overlay []string
	// sel is the mouse selection being dragged.
	sel selection
	// count is a number typed in the pager before a command, as in less.
	count int
	// histIndex is where the Ctrl+R search continues from.
	histIndex int

	// approvals are the pending questions, oldest first; the engine asks
	// serially, so there is at most one in practice, but the queue keeps
	// a burst of events from losing one.
	approvals []event.Approval
	// previewState is the oldest approval's preview, laid out and
	// scrolled.
	previewState previewState
	// trust is the question about the project's files while it waits.
	trust *trustPanel

	// extStatus is the extensions' word for the status line (MCP
	// servers).
	extStatus string

	// perf is the /perf meter, nil while the row is off.
	perf *perfMeter

	// unfocused is set while the terminal reports its window unfocused;
	// ring asks the next frame to carry a bell.
	unfocused bool
	ring      bool

	running     bool
	turnStarted time.Time
	// spinnerStep is the spinner's step (time since turnStarted in
	// spinnerIntervals) when Tick last asked for a frame.
	spinnerStep time.Duration
	usage       event.Usage
	// cost sums the turns' known costs in US dollars; costKnown is set
	// once one was known, costPartial when a turn's price was not.
	cost                   float64
	costKnown, costPartial bool
	ctxTokens              int
	ctxWindow              int
	sessionID              string
	// unsaved is set while saving the session fails (an event's Store
	// status); the status line says so.
	unsaved bool

	// quitArmed is when Ctrl+C last fell through to "press again to quit".
	quitArmed time.Time
	// notice is a transient message for the status line.
	notice      string
	noticeUntil time.Time

	// pastes maps placeholder chips in the editor to the pasted text they
	// stand for; expanded on submit.
	pastes map[string]string

	width, height int
	// cursor is where the last draw put the terminal cursor.
	cursor Cursor
	quit   bool
	// dirty is set by every change that needs a frame.
	dirty bool
	// chrome keeps the bottom rows as last drawn (rowcache.go).
	chrome chromeRows
}

// NewModel returns the state for a session shown in tr, with the prompt
// history given (nil: an empty one).
func NewModel(tr *scrollback.Transcript, history *History, status Status, minimal bool) *Model {
	if history == nil {
		history = &History{}
	}
	m := &Model{tr: tr, history: history, status: status, minimal: minimal, pastes: map[string]string{}, dirty: true}
	m.newTranscript = func(prior []event.Event) *scrollback.Transcript {
		t := scrollback.New(scrollback.Options{Width: m.width, Height: max(m.height, 1)})
		for _, e := range prior {
			t.Apply(e)
		}
		return t
	}
	if status.Replay {
		m.focus = focusPager
	}
	return m
}

// SetExtensions gives the state the commands from outside the app's
// table and the skills the session found. Commands CheckCommands would
// drop are left out.
func (m *Model) SetExtensions(cmds []Command, skills []SkillInfo) {
	m.commands, _ = CheckCommands(cmds)
	m.skills = skills
}

// SetExtensionStatus records the session's extensions' word for the
// status line (its MCP servers: "mcp 2/3").
func (m *Model) SetExtensionStatus(summary string) {
	if summary != m.extStatus {
		m.extStatus = summary
		m.dirty = true
	}
}

// Transcript returns the transcript the model shows.
func (m *Model) Transcript() *scrollback.Transcript { return m.tr }

// PromptText is the prompt editor's text.
func (m *Model) PromptText() string { return m.editor.Text() }

// Quit reports whether the user asked to leave.
func (m *Model) Quit() bool { return m.quit }

// Minimal reports whether the inline view is active.
func (m *Model) Minimal() bool { return m.minimal }

// Running reports whether a turn is in progress.
func (m *Model) Running() bool { return m.running }

// HandleEvent reduces one engine event into the state.
func (m *Model) HandleEvent(e event.Event, now time.Time) {
	m.tr.Apply(e)
	m.dirty = true
	if e.Store != "" {
		m.unsaved = e.Store == event.StoreFailing
	}
	switch e.Kind {
	case event.SessionStarted:
		if e.Session != nil {
			m.sessionID = e.Session.ID
			if e.Session.Model != "" && !m.status.Demo {
				m.status.Model = e.Session.Model
				if e.Session.Provider != "" {
					m.status.Model = e.Session.Provider + "/" + e.Session.Model
				}
			}
			// A session restarted with a project's settings may run under
			// a stricter sandbox or approval mode than it started with.
			if e.Session.Sandbox != "" {
				m.status.Sandbox = e.Session.Sandbox
			}
			if e.Session.Approval != "" {
				m.status.Approval = e.Session.Approval
			}
		}
	case event.TurnStarted:
		m.running = true
		m.turnStarted = now
		m.spinnerStep = 0
	case event.ApprovalRequested:
		if e.Approval != nil {
			m.approvals = append(m.approvals, *e.Approval)
			m.callUser()
		}
	case event.ApprovalAnswered:
		if e.Approval != nil {
			m.dropApproval(e.Approval.CallID)
		}
	case event.ToolFinished:
		if e.Result != nil {
			m.dropApproval(e.Result.CallID)
		}
	case event.TurnEnded:
		if m.running {
			m.callUser()
		}
		m.running = false
		m.approvals = m.approvals[:0]
		if m.input.kind == inputDenyReason {
			m.input = inputLine{}
		}
		if e.End != nil {
			m.usage.PromptTokens += e.End.Usage.PromptTokens
			m.usage.CompletionTokens += e.End.Usage.CompletionTokens
			m.usage.TotalTokens += e.End.Usage.TotalTokens
			switch {
			case e.End.Cost != nil:
				m.cost += *e.End.Cost
				m.costKnown = true
			case e.End.Usage.TotalTokens > 0:
				m.costPartial = true
			}
			if e.End.ContextWindow > 0 {
				m.ctxTokens, m.ctxWindow = e.End.ContextTokens, e.End.ContextWindow
			}
		}
	case event.Compacted:
		if e.Compaction != nil {
			m.ctxTokens = e.Compaction.AfterTokens
		}
	}
}

// applySwitch takes in the result of an operation that replaced the
// session (or tried to): on success the turn state starts afresh, the
// transcript is rebuilt when asked, and /rewind's prompt comes back into
// the editor; an error is shown.
func (m *Model) applySwitch(r Switched, err error, now time.Time) {
	m.switching = false
	m.dirty = true
	if err != nil {
		m.flash(err.Error(), now)
		return
	}
	if r.Rebuild {
		m.tr = m.newTranscript(r.Prior)
		m.running = false
		m.approvals = m.approvals[:0]
	}
	if r.Prompt != "" {
		m.editor.SetText(r.Prompt)
		m.pastes = map[string]string{}
	}
	if r.Notice != "" {
		m.flash(r.Notice, now)
	}
}

// callUser rings the bell, when that is on, if the user is looking at
// another window: quire is waiting for them.
func (m *Model) callUser() {
	if m.status.Bell && m.unfocused {
		m.ring, m.dirty = true, true
	}
}

// TakeBell reports whether the next frame should ring the bell, once.
func (m *Model) TakeBell() bool {
	r := m.ring
	m.ring = false
	return r
}

func (m *Model) dropApproval(callID string) {
	for i, a := range m.approvals {
		if a.CallID == callID {
			m.approvals = append(m.approvals[:i], m.approvals[i+1:]...)
			return
		}
	}
}

// SetSize records the terminal's size; the views split it.
func (m *Model) SetSize(w, h int) {
	if w == m.width && h == m.height {
		return
	}
	m.width, m.height = w, h
	m.dirty = true
}

// flash shows a transient message in the status line.
func (m *Model) flash(msg string, now time.Time) {
	m.notice = msg
	m.noticeUntil = now.Add(4 * time.Second)
	m.dirty = true
}

// Tick advances time-driven state (the spinner, notices expiring) and
// reports whether a frame is needed.
func (m *Model) Tick(now time.Time) {
	if m.notice != "" && !now.Before(m.noticeUntil) {
		m.notice = ""
		m.dirty = true
	}
	if m.running {
		// The spinner and the elapsed time move at the spinner's steps
		// only: a frame between two steps would show the same, and a
		// stream's events, which draw anyway, would each leave a frame
		// pending for nothing.
		if step := now.Sub(m.turnStarted) / spinnerInterval; step != m.spinnerStep {
			m.spinnerStep = step
			m.dirty = true
		}
		// Running subagents show how long they have run; a replay shows
		// what the events said.
		if !m.status.Replay && m.tr.SetNow(now) {
			m.dirty = true
		}
	}
}

// NextWake is when Tick must run next, or the zero time when nothing
// time-driven is on screen: an idle quire sleeps until input arrives.
func (m *Model) NextWake(now time.Time) time.Time {
	var t time.Time
	if m.running {
		// The spinner's next step, on the turn's own clock: a deadline
		// that stands until it passes, so the loop's timer is not moved
		// at every event of a stream.
		steps := now.Sub(m.turnStarted)/spinnerInterval + 1
		t = m.turnStarted.Add(steps * spinnerInterval)
	}
	if m.notice != "" && (t.IsZero() || m.noticeUntil.Before(t)) {
		t = m.noticeUntil
	}
	return t
}

// spinnerInterval is how often the spinner advances while work runs.
const spinnerInterval = 100 * time.Millisecond

// TakeDirty reports whether the state changed since the last call.
func (m *Model) TakeDirty() bool {
	d := m.dirty
	m.dirty = false
	return d
}
