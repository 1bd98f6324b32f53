// Package testserver is an OpenAI-compatible chat completions server
// driven by a script. For each request it plays the next scripted
// Response as a server-sent event stream — text and reasoning in chosen
// chunks at a chosen pace, tool calls with their arguments split across
// chunks, token usage — or a fault: an HTTP error with Retry-After, a
// malformed event, a stream cut mid-way, a slow first token, a hang. It
// records every request so a test can assert exactly what the model saw,
// decoded with its own small types rather than a client library's, so it
// checks what a client really sent.
//
// It is product code, not test scaffolding: `quire demo` plays a script
// against it, and the end-to-end tests start it in the test process and
// point OPENAI_BASE_URL at URL().
//
//	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
//		{Text: testserver.Words("Hello there.")},
//	}})
//	defer srv.Close()
//	// OPENAI_BASE_URL=srv.URL()
//
// A script can also be written as JSON (see ParseScript) and react to
// what it receives through Script.Respond.
package testserver
