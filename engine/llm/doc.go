// Package llm is what every wire protocol of quire shares: the
// protocol-neutral request and answer (Request, Message, Response, Usage),
// the Handler that receives an answer as it streams, the errors a call can
// end in and what can be done about each, and the Transport that sends a
// protocol's requests and reads its server-sent events.
//
// Each protocol lives in a subpackage that owns its wire types (package
// chat for OpenAI chat completions, responses for the OpenAI Responses
// API, anthropic for the Anthropic Messages API) and turns a Request into
// an Exchange: the URL, the headers, the body and a Decoder for the
// answer. The engine
// depends only on this package and on a Sampler interface of its own;
// adding a protocol does not touch the turn loop.
//
// Transport.Stream makes one logical call: it retries 429, 5xx, network
// failures, broken streams and client-side timeouts with exponential
// backoff and jitter (honouring Retry-After and "try again in Xs" hints,
// every wait capped), but only while nothing has been shown to the user
// yet; it never retries 400, 401, 403 or 404, nor a URL that does not
// serve the protocol (a 404 naming no model, a web page). It bounds the
// first token, the gap between events and the whole call with deadlines
// of its own. Its
// SSE reader never splits a UTF-8 character and bounds an event at 1 MiB.
// Errors are *Error values whose Kind says what went wrong and whose
// message tells the user what to do about it.
package llm
