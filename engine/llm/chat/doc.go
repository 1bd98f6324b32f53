// Package chat speaks the OpenAI chat completions protocol, which OpenAI's
// older models, xAI, Groq, DeepSeek, OpenRouter, Ollama, vLLM and
// llama.cpp serve: streaming with tool calls over server-sent events.
//
// Requests are built from go-openai's wire types (ChatCompletionRequest,
// ChatCompletionMessage, Tool), so the body is exactly what the OpenAI API
// documents; go-openai's types appear in no other package of quire. The
// stream is read by this package's own chunk decoder over the shared
// transport of package llm rather than go-openai's reader: it takes the
// reasoning text servers send as either "reasoning_content" or
// "reasoning", assembles tool calls from fragments with or without an
// index, and accepts a server that ignored "stream" and answered whole.
//
// Reasoning a model writes inline as "<think>…</think>" in its answer
// (common with local OpenAI-compatible servers) is moved to the reasoning
// lane as it streams.
package chat
