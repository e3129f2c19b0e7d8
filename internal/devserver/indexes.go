package devserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	_ "modernc.org/sqlite" // the driver the Temporal CLI writes temporal.db with
)

// The dev server's visibility store is SQLite's executions_visibility,
// one row a run, with 45 indexes besides its primary key: one per system
// column a query may filter on and one per custom search attribute column
// (Keyword01-10, Int01-03, Bool01-03, Double01-03, Datetime01-03), each
// over a JSON_EXTRACT of the row's attributes. A run's close record is one REPLACE that updates every
// index; it was the largest single item of the server's CPU a question
// (about a fifth, docs/log/performance-scale.md "Round 11: the Temporal side").
//
// trimVisibilityIndexes drops the indexes no query can use and those of
// columns neither assay nor the Web UI filters on:
//
//   - the index of every custom column no search attribute is mapped to: a
//     query names attributes, never columns, so nothing reads these (they
//     index NULL in every row);
//   - the indexes of droppedSystemIndexes: counters and ids an operator may
//     still filter on (HistoryLength > 1000), answered by a scan of the
//     namespace's rows instead of an index, which at a dev server's size
//     (thousands to a few hundred thousand runs) takes milliseconds to a
//     second or so.
//
// What every query answers is unchanged; only which use an index changes.
// It also restores the index of every mapped custom column that lacks one,
// so an attribute registered after an earlier trim (its column's index
// dropped as unmapped then) is indexed again from the next start on; until
// then its queries scan. The CLI creates the schema only when temporal.db
// does not exist and never migrates it, so nothing recreates or expects
// the dropped indexes.
func trimVisibilityIndexes(ctx context.Context, dbPath string) (dropped, restored []string, err error) {
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: dbPath}).EscapedPath()+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	mapped, err := mappedColumns(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'executions_visibility' AND sql IS NOT NULL`)
	if err != nil {
		return nil, nil, err
	}
	indexed := map[string]bool{} // columns with an index
	var drop []string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			rows.Close()
			return nil, nil, err
		}
		col := indexColumn(def)
		if col == "" {
			continue
		}
		indexed[col] = true
		if droppedSystemIndexes[col] || (customColumn.MatchString(col) && !mapped[col]) {
			drop = append(drop, name)
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, nil, err
	}
	var create []string
	for _, col := range slices.Sorted(maps.Keys(mapped)) {
		if customColumn.MatchString(col) && !indexed[col] {
			create = append(create, col)
		}
	}
	if len(drop) == 0 && len(create) == 0 {
		return nil, nil, nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	for _, name := range drop {
		if _, err := tx.ExecContext(ctx, `DROP INDEX IF EXISTS "`+name+`"`); err != nil {
			return nil, nil, fmt.Errorf("drop index %s: %w", name, err)
		}
	}
	for _, col := range create {
		name := customIndexName(col)
		if _, err := tx.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS "`+name+`" ON executions_visibility (namespace_id, "`+col+`", `+
			`(COALESCE(close_time, '9999-12-31 23:59:59+00:00')) DESC, start_time DESC, run_id)`); err != nil {
			return nil, nil, fmt.Errorf("create index %s: %w", name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, nil, err
	}
	return drop, create, nil
}

// droppedSystemIndexes are the system columns whose indexes
// trimVisibilityIndexes drops: run counters, the batcher's user, a
// schedule's nominal start time and paused flag, and the run ids of a
// parent and a root (the Web UI and assay filter on workflow ids, type,
// status, task queue, times and assay's own attributes; schedules and
// worker deployments on TemporalScheduledById, TemporalNamespaceDivision
// and the deployment columns, which keep theirs).
var droppedSystemIndexes = map[string]bool{
	"history_length": true, "history_size_bytes": true, "execution_duration": true, "state_transition_count": true,
	"BatcherUser": true, "TemporalScheduledStartTime": true, "TemporalSchedulePaused": true,
	"parent_run_id": true, "root_run_id": true,
}

// customColumn matches the columns custom search attributes are mapped to
// that have an index (Text and KeywordList columns have none).
var customColumn = regexp.MustCompile(`^(Bool|Datetime|Double|Int|Keyword)(\d\d)$`)

// customIndexName is the schema's name of a custom column's index:
// Keyword02 → by_keyword_02.
func customIndexName(col string) string {
	m := customColumn.FindStringSubmatch(col)
	return "by_" + strings.ToLower(m[1]) + "_" + m[2]
}

// indexOn matches an index definition's first two columns: namespace_id
// and the column the index is for.
var indexOn = regexp.MustCompile(`(?s)ON\s+executions_visibility\s*\(\s*namespace_id\s*,\s*"?(\w+)"?\s*,`)

// indexColumn is the column an executions_visibility index is for (its
// second column after namespace_id), or "" when def has another shape
// (the default ordering's index, which starts with an expression).
func indexColumn(def string) string {
	m := indexOn.FindStringSubmatch(def)
	if m == nil {
		return ""
	}
	return m[1]
}

// mappedColumns are the custom columns a search attribute of some
// namespace is mapped to: the keys of NamespaceConfig's
// custom_search_attribute_aliases (field 8) in the NamespaceDetail (config
// is field 2) each row of the namespaces table holds.
func mappedColumns(ctx context.Context, db *sql.DB) (map[string]bool, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, data, data_encoding FROM namespaces`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var name, enc string
		var data []byte
		if err := rows.Scan(&name, &data, &enc); err != nil {
			return nil, err
		}
		if !strings.EqualFold(enc, "Proto3") {
			return nil, fmt.Errorf("namespace %s: data encoded as %q, want Proto3", name, enc)
		}
		cols, err := aliasColumns(data)
		if err != nil {
			return nil, fmt.Errorf("namespace %s: %w", name, err)
		}
		for _, c := range cols {
			out[c] = true
		}
	}
	return out, rows.Err()
}

// aliasColumns reads the columns of custom_search_attribute_aliases from
// an encoded NamespaceDetail.
func aliasColumns(detail []byte) ([]string, error) {
	var cols []string
	err := eachField(detail, func(num protowire.Number, typ protowire.Type, v []byte) error {
		if num != 2 || typ != protowire.BytesType { // NamespaceDetail.config
			return nil
		}
		return eachField(v, func(num protowire.Number, typ protowire.Type, entry []byte) error {
			if num != 8 || typ != protowire.BytesType { // NamespaceConfig.custom_search_attribute_aliases
				return nil
			}
			return eachField(entry, func(num protowire.Number, typ protowire.Type, key []byte) error {
				if num == 1 && typ == protowire.BytesType { // the map entry's key: the column
					cols = append(cols, string(key))
				}
				return nil
			})
		})
	})
	return cols, err
}

// eachField calls f with each field of the protobuf message b; v is the
// field's bytes for length-delimited fields and nil for the others.
func eachField(b []byte, f func(protowire.Number, protowire.Type, []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("bad protobuf tag: %w", protowire.ParseError(n))
		}
		b = b[n:]
		var v []byte
		if typ == protowire.BytesType {
			v, n = protowire.ConsumeBytes(b)
		} else {
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("bad protobuf field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := f(num, typ, v); err != nil {
			return err
		}
	}
	return nil
}
