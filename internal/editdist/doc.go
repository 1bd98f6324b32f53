// Package editdist measures how far apart two strings are, for the
// "did you mean" suggestions of slash commands, tool arguments and file
// names: one answer, so a typo is judged alike wherever quire suggests.
package editdist
