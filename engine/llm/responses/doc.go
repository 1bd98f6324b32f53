// Package responses speaks the OpenAI Responses API, the protocol OpenAI's
// reasoning models are meant to be used with: streaming with parallel tool
// calls over server-sent events, stateless.
//
// Every request is sent with store false and, to a reasoning model, asks
// for the reasoning items' encrypted content, so nothing of the
// conversation is kept on the server: the model's reasoning items (with their encrypted content and
// summaries) come back in the answer's llm.ReasoningState and are sent
// again, as the server wrote them, with the next request, which keeps a reasoning model's
// chain across tool calls. State that another protocol wrote, or that an
// earlier model of this protocol wrote, is not sent. Reasoning summaries
// stream to the reasoning lane.
//
// The wire types are this package's own, written from the API reference:
// the official SDK's types cost 7 MB of binary for the dozen shapes quire
// sends, and its client would bypass the shared transport's deadlines and
// retries. The stream is read by this package's decoder over package llm's
// transport; finish reasons and errors are normalised to llm's.
package responses
