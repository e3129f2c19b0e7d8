package bleveindex

// Metadata filters as bitmaps of ordinals.
//
// filters.json holds, for each filterable field but the ACL (whose
// bitmaps are postings' groups), one roaring bitmap per distinct value:
// the ordinals of the chunks with that value. A filter is then the And of
// its conditions, each the Or of the bitmaps of the values it accepts
// (for authority, every value ≥ the minimum; for dates, every date in the
// range), so no search scans the corpus to filter it. The file also holds
// the bitmap of the chunks with no text, for Warnings.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
)

const filtersFile = "filters.json"

// filterFile is filters.json: field → value → bitmap (roaring's portable
// serialization).
type filterFile struct {
	Fields map[string]map[string][]byte `json:"fields"`
	Empty  []byte                       `json:"empty"`
}

// filterNames are the keys of filters.json's fields.
var filterNames = map[backend.Field]string{
	backend.FieldType: "type", backend.FieldProducts: "products", backend.FieldStatus: "status",
	backend.FieldAuthority: "authority", backend.FieldUpdated: "updated",
}

// filters are the bitmaps of filters.json, read at Open.
type filters struct {
	fields map[backend.Field]map[string]*roaring.Bitmap
	// authority maps each authority value's key to the value.
	authority map[string]float64
	empty     *roaring.Bitmap
}

// writeFilters writes the filter bitmaps of chunks (in ordinal order).
func writeFilters(dir string, chunks []corpus.Chunk) error {
	bms := map[backend.Field]map[string]*roaring.Bitmap{}
	add := func(f backend.Field, v string, ord int) {
		if bms[f] == nil {
			bms[f] = map[string]*roaring.Bitmap{}
		}
		bm := bms[f][v]
		if bm == nil {
			bm = roaring.New()
			bms[f][v] = bm
		}
		bm.Add(uint32(ord))
	}
	empty := roaring.New()
	for i := range chunks {
		c := &chunks[i]
		add(backend.FieldType, c.Type, i)
		add(backend.FieldStatus, string(c.Status), i)
		add(backend.FieldAuthority, strconv.FormatFloat(c.Authority, 'g', -1, 64), i)
		for _, p := range c.Products {
			add(backend.FieldProducts, p, i)
		}
		if c.Updated != "" {
			add(backend.FieldUpdated, c.Updated, i)
		}
		if c.Text == "" {
			empty.Add(uint32(i))
		}
	}
	out := filterFile{Fields: map[string]map[string][]byte{}}
	var err error
	for f, vals := range bms {
		m := map[string][]byte{}
		for v, bm := range vals {
			bm.RunOptimize()
			if m[v], err = bm.ToBytes(); err != nil {
				return err
			}
		}
		out.Fields[filterNames[f]] = m
	}
	if out.Empty, err = empty.ToBytes(); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, filtersFile), out)
}

func readFilters(dir string) (*filters, error) {
	b, err := os.ReadFile(filepath.Join(dir, filtersFile))
	if err != nil {
		return nil, err
	}
	var ff filterFile
	if err := json.Unmarshal(b, &ff); err != nil {
		return nil, err
	}
	fs := &filters{fields: map[backend.Field]map[string]*roaring.Bitmap{}, authority: map[string]float64{}, empty: roaring.New()}
	// UnmarshalBinary copies: FromBuffer would alias the decoded bytes at
	// whatever alignment JSON left them, which checkptr (go test -race)
	// rejects.
	if err := fs.empty.UnmarshalBinary(ff.Empty); err != nil {
		return nil, err
	}
	for f, name := range filterNames {
		m := map[string]*roaring.Bitmap{}
		for v, data := range ff.Fields[name] {
			bm := roaring.New()
			if err := bm.UnmarshalBinary(data); err != nil {
				return nil, err
			}
			m[v] = bm
			if f == backend.FieldAuthority {
				if fs.authority[v], err = strconv.ParseFloat(v, 64); err != nil {
					return nil, err
				}
			}
		}
		fs.fields[f] = m
	}
	return fs, nil
}

// allowed is the bitmap of the chunks that pass f's conditions other than
// its groups, or nil when f has none (nothing to filter).
func (fs *filters) allowed(f backend.Filter) *roaring.Bitmap {
	var out *roaring.Bitmap
	for _, c := range f.Conditions() {
		if c.Field == backend.FieldACL {
			continue
		}
		vals := fs.fields[c.Field]
		var pass []*roaring.Bitmap
		for v, bm := range vals {
			if fs.accepts(c, v) {
				pass = append(pass, bm)
			}
		}
		bm := roaring.FastOr(pass...)
		if out == nil {
			out = bm
		} else {
			out.And(bm)
		}
	}
	return out
}

// accepts reports whether condition c passes a chunk whose field has
// value v (as filters.json keys it).
func (fs *filters) accepts(c backend.Condition, v string) bool {
	switch c.Kind {
	case backend.AtLeast:
		return fs.authority[v] >= c.Min
	case backend.DateRange:
		return v != "" && (c.From == "" || v >= c.From) && (c.To == "" || v <= c.To)
	}
	for _, want := range c.Values {
		if v == want {
			return true
		}
	}
	return false
}
