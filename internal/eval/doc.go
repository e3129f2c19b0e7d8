// Package eval measures retrieval: metrics computed exactly as NIST
// trec_eval v10 computes them, and the files they are computed from — qrels
// (TREC and BEIR), TREC run files, BEIR datasets, labelled question files
// and their key facts — and the comparison of retrieval modes that
// `assay eval retrieval` prints. Judging answers is package judge's job.
//
// # trec_eval semantics
//
// Evaluate reproduces trec_eval's definitions, checked in metrics_test.go
// against trec_eval's own expected outputs:
//
//   - A ranking is ordered by score, highest first; ties are broken by
//     document id, descending (byte order), whatever order the run listed
//     them in. Ranks in a run file are ignored.
//   - Options.MaxDocs (-M) keeps only that many documents of each ranking,
//     after sorting.
//   - A document is relevant for the binary measures (MAP, P, recall,
//     R-precision, reciprocal rank, success) when its qrels grade is at
//     least Options.RelevanceLevel (-l, default 1).
//   - nDCG uses the raw qrels grade as gain and a log2(rank+1) discount,
//     whatever the relevance level; the ideal ranking is built from every
//     judged document with a positive grade, retrieved or not.
//   - A negative grade in qrels (for example -1, "in the pool but not
//     judged") counts as neither relevant nor judged: gain 0, not in any
//     denominator. A retrieved document missing from qrels is not relevant.
//   - Only queries in the qrels are evaluated; run-only queries are
//     ignored. A query in the qrels that is missing from the run is skipped
//     unless Options.Complete (-c) is set, in which case it scores zero and
//     counts in every mean.
//
// # Queries that retrieve nothing
//
// trec_eval cannot see a query that retrieved nothing: a run file has no
// line for it, so without -c it silently drops out of the means and makes
// them look better — the complaint behind BEIR issues #70 and #102. In a Run
// built in memory a query may be present with no documents; Evaluate scores
// such a query zero (exactly what trec_eval -c does) even without Complete,
// and lists every judged query with relevant documents and an empty ranking
// in Evaluation.NoHit. assay's own retrieval evaluation always sets
// Complete, so a no-hit query always counts as zero.
//
// Averages: num_ret, num_rel and num_rel_ret are summed over queries, as
// trec_eval prints them; every other measure is the arithmetic mean.
package eval
