package apiclient

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/assay-rag/assay/internal/api"
)

// ReadQuestions reads a question file for a batch (`assay batch`,
// `assay bench`): JSONL lines with a question and an optional id; other
// fields (an eval set's relevant ids, expected answer) are ignored.
func ReadQuestions(file string) ([]api.BatchQuestion, error) {
	fh, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var qs []api.BatchQuestion
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for line := 1; sc.Scan(); line++ {
		b := strings.TrimSpace(sc.Text())
		if b == "" {
			continue
		}
		var q api.BatchQuestion
		if err := json.Unmarshal([]byte(b), &q); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if strings.TrimSpace(q.Question) == "" {
			return nil, fmt.Errorf("%s:%d: no question", file, line)
		}
		qs = append(qs, api.BatchQuestion{ID: q.ID, Question: q.Question})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no questions", file)
	}
	return qs, nil
}
