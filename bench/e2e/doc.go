// Package e2e benchmarks quire end to end, as a user's terminal sees it:
// the real binary runs in a pseudo-terminal of fixed size against the
// scripted model (engine/testserver), which streams a fixed markdown
// answer in small chunks at a steady pace, and the harness plays the
// terminal on the other side: it counts every byte the program writes,
// interprets them with a headless emulator (which also answers the
// program's queries), and types the prompt.
//
// For full-screen and inline mode it reports, as medians over runs
// interleaved round by round: bytes written per streamed chunk and CPU
// time per chunk (user + system, the process tree, from the prompt's
// Enter to the answer's last frame), peak RSS (wait4's ru_maxrss), the
// time from start to a ready prompt, and the time from the stream's last
// byte to the last frame. With E2E_PEERS set, the other agent UIs that
// are installed (Claude Code, codex, opencode, qwen-code, crush) run the
// same workload beside it; those that cannot run are reported as skipped
// with the reason. `make bench-e2e` and `make bench-peers` print the
// table and judge the targets.
package e2e
