package llm

import (
	"reflect"
	"testing"
)

func TestAssembleCallsOrdersByIndexAndNamesMissingIDs(t *testing.T) {
	calls := map[int]*PartialCall{
		7: {Name: "grep", Args: []byte(`{"q":"x"}`)},
		2: {ID: "a", Name: "read_file", Args: []byte(`{}`)},
		5: {ID: "b", Name: "shell"},
	}
	want := []ToolCall{
		{ID: "a", Name: "read_file", Arguments: `{}`},
		{ID: "b", Name: "shell"},
		{ID: "call_2", Name: "grep", Arguments: `{"q":"x"}`},
	}
	if got := AssembleCalls(calls); !reflect.DeepEqual(got, want) {
		t.Fatalf("AssembleCalls = %+v, want %+v", got, want)
	}
	if got := AssembleCalls(nil); got != nil {
		t.Fatalf("no calls: %+v, want nil", got)
	}
}
