package main

import (
	"encoding/json"
	"testing"
)

// An index made with NOOFFSETS (round 22) has FT.INFO report
// offset_bits_per_record_avg as "nan"; a -costs report that kept it could
// not be written (json: unsupported value: NaN) and lost the whole run.
func TestFTNumbersLeavesOutNaN(t *testing.T) {
	ft := []any{
		"index_name", "scale500000",
		"num_docs", int64(500000),
		"inverted_sz_mb", "123.5",
		"offset_bits_per_record_avg", "nan",
		"records_per_doc_avg", "inf",
		"index_options", []any{"NOOFFSETS", "NOFIELDS"},
	}
	got := ftNumbers(ft)
	want := map[string]float64{"num_docs": 500000, "inverted_sz_mb": 123.5}
	if len(got) != len(want) {
		t.Fatalf("ftNumbers = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("ftNumbers[%q] = %v, want %v", k, got[k], v)
		}
	}
	if _, err := json.Marshal(Run{Backend: RediSearch, RedisMemory: got}); err != nil {
		t.Errorf("the report cannot hold FT.INFO's numbers: %v", err)
	}
}
