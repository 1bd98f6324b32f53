// Package testserver is a model server driven by a script, speaking each
// protocol quire does: OpenAI chat completions (POST /v1/chat/completions),
// the OpenAI Responses API (POST /v1/responses) and the Anthropic Messages
// API (POST /v1/messages). For each request, on any route, it plays the
// next scripted Response in that route's wire format as a server-sent
// event stream — text and reasoning in chosen
// chunks at a chosen pace, tool calls with their arguments split across
// chunks, token usage — or a fault: an HTTP error with Retry-After, a
// malformed event, a stream cut mid-way, a slow first token, a hang. It
// records every request so a test can assert exactly what the model saw:
// decoded with its own small types rather than a client library's, so it
// checks what a client really sent, and read into chat completions' terms
// whatever protocol it came in.
//
// Like the real APIs, it refuses requests they refuse: reasoning sent
// back altered (it signs the thinking and seals the reasoning items it
// sends), a Responses reasoning item sent by id alone with store false, a
// tool_use without its tool_result right after, an id or a thinking
// budget the Messages API rejects.
//
// It is product code, not test scaffolding: `quire demo` plays a script
// against it, and the end-to-end tests start it in the test process and
// point OPENAI_BASE_URL at URL().
//
//	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
//		{Text: testserver.Words("Hello there.")},
//	}})
//	defer srv.Close()
//	// OPENAI_BASE_URL=srv.URL(); an Anthropic-type provider's base_url
//	// is srv.Root()
//
// A script can also be written as JSON (see ParseScript) and react to
// what it receives through Script.Respond.
package testserver
