package tools

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/sandbox"
)

func TestShellReportsTheProcessCap(t *testing.T) {
	te := newTestEnv(t, "workspace")
	requireSandbox(t, te.Env)
	max := 20
	p, err := sandbox.Settings{MaxProcesses: &max}.Profile("workspace", te.ws)
	if err != nil {
		t.Fatal(err)
	}
	te.Profile = p
	exit, err := sandbox.Run(t.Context(), p, te.Support, sandbox.Command{Argv: []string{"true"}, Dir: te.ws})
	if err != nil {
		t.Fatal(err)
	}
	if exit.Processes.Limit == 0 {
		t.Skipf("no process cap here: %s", exit.Processes.Why)
	}
	// dash gives up on a failed fork at once (bash retries for half a
	// minute); the exit status says some starts failed.
	res := run(t, Shell{}, te.Env, obj{"command": "sh -c 'for i in $(seq 60); do sleep 2 & done 2>/dev/null; wait; exit 3'"})
	if !strings.Contains(res.Output, "at most 20 processes and threads") {
		t.Fatalf("the result does not name the cap:\n%s", res.Output)
	}
	res = run(t, Shell{}, te.Env, obj{"command": "echo fine"})
	if strings.Contains(res.Output, "processes and threads") {
		t.Fatalf("a plain command mentions the cap:\n%s", res.Output)
	}
}
