package agents

// Fields are the settings of a child session that a task call, an agent
// definition (its role), the persona the definition names and the parent
// session can each give.
type Fields struct {
	// Model is [PROVIDER/]MODEL; "" gives none.
	Model string
	// Tools are tool names or patterns; nil gives none (an empty list
	// gives "no tools").
	Tools []string
}

// Resolve applies the per-field cascade: each field independently takes
// the first of the task call's explicit value, the role's (the agent
// definition's), the persona's and the parent's that gives one, so a
// model may come from the role and tools from the persona. A field none
// of them gives stays unset (for Tools: the read-only default).
func Resolve(explicit, role, persona, parent Fields) Fields {
	var out Fields
	for _, f := range []Fields{explicit, role, persona, parent} {
		if out.Model == "" {
			out.Model = f.Model
		}
		if out.Tools == nil && f.Tools != nil {
			out.Tools = f.Tools
		}
	}
	return out
}

// Fields are the settings the definition gives.
func (d Definition) Fields() Fields { return Fields{Model: d.Model, Tools: d.Tools} }
