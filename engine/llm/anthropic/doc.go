// Package anthropic speaks the Anthropic Messages API: streaming with
// parallel tool calls and extended thinking over server-sent events.
//
// A request's system prompt, tools and latest turns carry prompt-cache
// breakpoints (cache_control), so a long session re-reads its prefix from
// the cache instead of paying for it again; usage reports the cache's
// reads and writes. Tool results go back as one user message of
// tool_result blocks in the calls' order, flagged is_error when the call
// failed; tool_use ids another protocol wrote are mapped to ids this API
// accepts, the same way every time.
//
// Thinking blocks, with their signatures, and redacted thinking come back
// in the answer's llm.ReasoningState and are sent again verbatim, first in
// their assistant message, to the model that wrote them; state that
// another protocol or model wrote is not sent. Thinking streams to the
// reasoning lane.
//
// The wire types are this package's own, written from the API reference:
// the official SDK's types cost 7.8 MB of binary for the dozen shapes
// quire sends, and its client would bypass the shared transport's
// deadlines and retries. An overloaded_error inside the stream and HTTP
// 529 are retried like any server error.
package anthropic
