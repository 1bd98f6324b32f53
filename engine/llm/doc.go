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
// failures and broken streams with exponential backoff and jitter
// (honouring Retry-After and "try again in Xs" hints, every wait capped),
// but only while nothing has been shown to the user yet; it never retries
// 400, 401, 403 or 404, nor a URL that does not serve the protocol (a
// 404 naming no model, a web page), retries a client-side timeout or a malformed event
// once only (the same malformed event twice is the server's answer, not
// the network), and never an attempt that used its whole time limit. Each
// attempt has deadlines of its own — for the first event, between events,
// and overall — that count events, never keep-alive comments or bytes, and
// its timeout says how far the server got (no headers, headers only,
// comments only, stalled). Its SSE reader never splits a UTF-8 character
// and bounds an event at 1 MiB. Errors are *Error values whose Kind says
// what went wrong; the hint that ends a message (which key or flag to
// check) is the configured provider's, given in TransportConfig.Hints.
// The text of the events one read brings is handed to the Handler in one
// call (reasoning and text each, in the order they came), just before the
// stream is read again. With TransportConfig.Coalesce set (the session
// sets it to the screen's frame interval), a stream is read at most once
// per interval after text was delivered: events that arrive meanwhile
// wait in the socket and are read together, so a fast stream wakes the
// process once per frame rather than once per event, and a cancel ends
// the wait at once. On Linux the wait is a timerfd read through the
// runtime's poller (holdoff_linux.go), which wakes one thread once, where
// a runtime timer woke the poller early (it sleeps in whole
// milliseconds) and the monitor thread with it. The default client's
// connections read their socket
// with a raw system call (quietConn): such a read finds its bytes already
// there, and through Go's syscall path it would wake the runtime's monitor
// thread every frame.
package llm
