// Package chat speaks the OpenAI chat completions protocol, which OpenAI's
// older models, xAI, Groq, DeepSeek, Mistral, OpenRouter, Ollama, vLLM and
// llama.cpp serve: streaming with tool calls over server-sent events.
//
// Requests are built from go-openai's wire types (ChatCompletionRequest,
// ChatCompletionMessage, Tool), so the body is exactly what the OpenAI API
// documents; go-openai's types appear in no other package of quire. The
// answer is read by this package's own lenient decoder over the shared
// transport of package llm, because servers disagree on its shape: content
// comes as a string or as a list of typed parts (text, refusal, thinking
// with nested text; images and other parts are skipped), reasoning as
// "reasoning_content" or "reasoning", usage at the top level, under
// x_groq, or on the chunk that carries an error, tool-call fragments with
// or without an index, and some servers ignore "stream" and answer whole.
// A field of an unexpected shape costs that field, never the event.
// Finish reasons are named in llm's words ("max_tokens" is FinishLength);
// an error inside a 200 stream is classified by its code and words
// (llm.InStream), never as an HTTP status it did not have.
//
// Reasoning a model writes inline as "<think>…</think>" in its answer
// (common with local OpenAI-compatible servers) is moved to the reasoning
// lane as it streams. Reasoning goes back to the server only where a
// Replay rule says so: DeepSeek's thinking mode requires it on the
// assistant messages of exchanges with tool calls, and strict servers
// refuse it everywhere else (Config.ReplayReasoning, DefaultReplay).
package chat
