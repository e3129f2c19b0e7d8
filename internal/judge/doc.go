// Package judge evaluates answers: where each run of a labelled question
// lost the answer (Judge, the Outcome funnel), its citations and leaks, its
// trajectory, aggregates of the loop against the one-pass baseline
// (Summarize, AnswersReport), their JSON, Markdown and HTML reports with
// inline SVG charts, and the baseline check `make eval` runs
// (CompareBaseline). Running the questions is the caller's job (`assay eval
// answers` runs them on Temporal); this package only judges finished runs.
// The labelled question and key-fact files are package eval's.
package judge
