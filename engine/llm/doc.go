// Package llm is quire's transport to the model: streaming chat completions
// with tool calls against any OpenAI-compatible endpoint.
//
// Requests are built from go-openai's wire types (ChatCompletionRequest,
// ChatCompletionMessage, Tool) so the body is exactly what the OpenAI API
// documents. The response stream is read by this package's own SSE reader
// rather than go-openai's: the engine needs things that reader does not
// give it — the reasoning text servers send as either "reasoning_content"
// or "reasoning", the Retry-After header of a refused request, a byte-level
// parser that never splits a UTF-8 character and bounds an event at 1 MiB,
// and separate first-token and inter-chunk idle deadlines.
//
// Reasoning a model writes inline as "<think>…</think>" in its answer
// (common with local OpenAI-compatible servers) is moved to the reasoning
// lane as it streams.
//
// Client.Stream makes one logical call: it retries 429, 5xx, network
// failures, broken streams and client-side timeouts with exponential
// backoff and jitter (honouring Retry-After and "try again in Xs" hints,
// every wait capped), but only while nothing has been shown to the user
// yet; it never retries 400, 401, 403 or 404. Errors are *Error values
// whose Kind says what went wrong and whose message tells the user what to
// do about it.
package llm
