package tools

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// named is a tool that only has a name.
type named string

func (n named) Spec() Spec { return Spec{Name: string(n), Kind: KindOther} }
func (n named) Plan(*Env, *Overlay, json.RawMessage) (Plan, error) {
	return Plan{}, nil
}
func (n named) Run(context.Context, *Env, Call) Result { return Result{} }

func names(r *Registry) []string {
	var out []string
	for _, s := range r.Specs() {
		out = append(out, s.Name)
	}
	return out
}

func TestRegistryGroups(t *testing.T) {
	r := NewRegistry(named("read_file"), named("shell"))
	v0 := r.Version()
	if clashes := r.SetGroup("a", []Tool{named("mcp__a__x"), named("shell")}); !slices.Equal(clashes, []string{"shell"}) {
		t.Fatalf("clashes %v", clashes)
	}
	if got := names(r); !slices.Equal(got, []string{"mcp__a__x", "read_file", "shell"}) {
		t.Fatalf("after a: %v", got)
	}
	if r.Version() == v0 {
		t.Fatal("version unchanged after a change")
	}
	r.SetGroup("b", []Tool{named("mcp__b__y")})
	// A group's new list replaces its old one and leaves the others.
	r.SetGroup("a", []Tool{named("mcp__a__z")})
	if got := names(r); !slices.Equal(got, []string{"mcp__a__z", "mcp__b__y", "read_file", "shell"}) {
		t.Fatalf("after a again: %v", got)
	}
	if _, ok := r.Lookup("mcp__a__x"); ok {
		t.Fatal("a's old tool is still there")
	}
	r.SetGroup("a", nil)
	if _, ok := r.Lookup("shell"); !ok {
		t.Fatal("emptying a group removed a built-in it clashed with")
	}
	if got := names(r); !slices.Equal(got, []string{"mcp__b__y", "read_file", "shell"}) {
		t.Fatalf("after emptying a: %v", got)
	}
}

func TestRegistrySettle(t *testing.T) {
	r := NewRegistry()
	if err := r.Settle(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Starting("a")
	r.Starting("b")
	done := make(chan error, 1)
	go func() { done <- r.Settle(context.Background()) }()
	r.SetGroup("a", []Tool{named("x")})
	select {
	case <-done:
		t.Fatal("settled while b is starting")
	case <-time.After(20 * time.Millisecond):
	}
	r.Settled("b")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	r.Starting("c")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Settle(ctx); err == nil {
		t.Fatal("a cancelled wait returned nil")
	}
}
