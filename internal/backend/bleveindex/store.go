package bleveindex

// The chunk store: chunks.jsonl read on demand, not held in memory.
//
// Build writes the chunks in ordinal order, which is chunk-id order (byte
// order), beside two tables:
//
//	chunks.tab   per ordinal a 24-byte record: the chunk's offset in
//	             chunks.jsonl, its id's offset in chunks.ids, its text
//	             fingerprint (little-endian uint64s); then one more record
//	             holding the two files' lengths
//	chunks.ids   the chunk ids, back to back, in ordinal order
//
// Both tables are memory-mapped: an id is found by binary search over
// chunks.ids (the ids are sorted), and a chunk is one pread and one JSON
// decode (goccy/go-json: the candidates of every search are decoded, and
// it takes about half of encoding/json's time).

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"

	gojson "github.com/goccy/go-json"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/mmap"
)

const (
	tableFile  = "chunks.tab"
	idsFile    = "chunks.ids"
	recordSize = 24
)

// store is an open chunk store.
type store struct {
	f    *os.File // chunks.jsonl
	tab  []byte   // chunks.tab, mapped
	ids  []byte   // chunks.ids, mapped
	n    int
	maps [][]byte
	byID idTable
}

// idTable finds an id's ordinal in a few reads of the mapped tables
// instead of a binary search's ~2·log₂ n (two random reads a step: the
// record, then the id; a question looks up every candidate's id, and at
// 500k chunks those searches were 2.6% of assay dev's CPU end to end).
// An open-addressing hash table over the ordinals, filled at open: slot
// holds ordinal+1 (0: empty), tag the hash's top byte, so a probe reads
// an id from the map only when the tag matches; every found id is
// compared in full, so the answer is the binary search's
// (TestOrdinalEqualsSearch). 5 bytes a slot, two slots a chunk at most:
// about 5 MB at 500k chunks.
type idTable struct {
	seed  maphash.Seed
	slots []uint32
	tags  []uint8
	mask  uint64
}

func (s *store) buildIDTable() {
	size := 1
	for size < 2*s.n {
		size *= 2
	}
	t := idTable{seed: maphash.MakeSeed(), slots: make([]uint32, size), tags: make([]uint8, size), mask: uint64(size - 1)}
	for i := range s.n {
		h := maphash.Bytes(t.seed, s.idBytes(i))
		j := h & t.mask
		for t.slots[j] != 0 {
			j = (j + 1) & t.mask
		}
		t.slots[j], t.tags[j] = uint32(i+1), uint8(h>>56)
	}
	s.byID = t
}

// writeStore writes chunks (sorted by id) and their fingerprints into dir.
func writeStore(dir string, chunks []corpus.Chunk, prints []uint64) error {
	js, err := os.Create(filepath.Join(dir, chunksFile))
	if err != nil {
		return err
	}
	defer js.Close()
	jw := bufio.NewWriter(js)
	var ids bytes.Buffer
	tab := make([]byte, 0, (len(chunks)+1)*recordSize)
	var off uint64
	for i := range chunks {
		b, err := json.Marshal(&chunks[i])
		if err != nil {
			return err
		}
		b = append(b, '\n')
		tab = binary.LittleEndian.AppendUint64(tab, off)
		tab = binary.LittleEndian.AppendUint64(tab, uint64(ids.Len()))
		tab = binary.LittleEndian.AppendUint64(tab, prints[i])
		jw.Write(b)
		ids.WriteString(chunks[i].ID)
		off += uint64(len(b))
	}
	tab = binary.LittleEndian.AppendUint64(tab, off)
	tab = binary.LittleEndian.AppendUint64(tab, uint64(ids.Len()))
	tab = binary.LittleEndian.AppendUint64(tab, 0)
	if err := jw.Flush(); err != nil {
		return err
	}
	if err := js.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, idsFile), ids.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, tableFile), tab, 0o644)
}

// openStore opens the chunk store in dir, which must hold n chunks.
func openStore(dir string, n int) (*store, error) {
	s := &store{n: n}
	var err error
	if s.tab, err = s.mmap(filepath.Join(dir, tableFile)); err != nil {
		return nil, err
	}
	if len(s.tab) != (n+1)*recordSize {
		s.close()
		return nil, fmt.Errorf("%s: %d bytes, %d chunks need %d: rebuild it", tableFile, len(s.tab), n, (n+1)*recordSize)
	}
	if s.ids, err = s.mmap(filepath.Join(dir, idsFile)); err != nil {
		s.close()
		return nil, err
	}
	if s.f, err = os.Open(filepath.Join(dir, chunksFile)); err != nil {
		s.close()
		return nil, err
	}
	st, err := s.f.Stat()
	if err == nil && (uint64(st.Size()) != s.field(n, 0) || uint64(len(s.ids)) != s.field(n, 1)) {
		err = fmt.Errorf("%s: %d bytes and %s %d, the table says %d and %d: rebuild it", chunksFile, st.Size(), idsFile, len(s.ids), s.field(n, 0), s.field(n, 1))
	}
	if err != nil {
		s.close()
		return nil, err
	}
	s.buildIDTable()
	return s, nil
}

func (s *store) mmap(path string) ([]byte, error) {
	b, err := mmap.Map(path)
	if err != nil {
		return nil, err
	}
	s.maps = append(s.maps, b)
	return b, nil
}

func (s *store) close() error {
	var err error
	for _, m := range s.maps {
		if e := mmap.Unmap(m); e != nil && err == nil {
			err = e
		}
	}
	s.maps = nil
	if s.f != nil {
		if e := s.f.Close(); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// field is field f (0 chunk offset, 1 id offset, 2 fingerprint) of the
// record of ordinal i.
func (s *store) field(i, f int) uint64 {
	return binary.LittleEndian.Uint64(s.tab[i*recordSize+f*8:])
}

// idBytes is the id of ordinal i, a view into the mapped file.
func (s *store) idBytes(i int) []byte { return s.ids[s.field(i, 1):s.field(i+1, 1)] }

// id is the id of ordinal i.
func (s *store) id(i int) string { return string(s.idBytes(i)) }

// ordinal finds id; ok is false when no chunk has it.
func (s *store) ordinal(id string) (int, bool) {
	t := &s.byID
	h := maphash.String(t.seed, id)
	tag := uint8(h >> 56)
	for j := h & t.mask; ; j = (j + 1) & t.mask {
		o := t.slots[j]
		if o == 0 {
			return s.n, false
		}
		if t.tags[j] == tag && string(s.idBytes(int(o-1))) == id {
			return int(o - 1), true
		}
	}
}

// print is the text fingerprint of ordinal i.
func (s *store) print(i int) uint64 { return s.field(i, 2) }

// chunk reads and decodes the chunk of ordinal i.
func (s *store) chunk(i int) (corpus.Chunk, error) {
	from, to := s.field(i, 0), s.field(i+1, 0)
	b := make([]byte, to-from)
	var c corpus.Chunk
	if _, err := s.f.ReadAt(b, int64(from)); err != nil {
		return c, fmt.Errorf("%s: chunk %d: %w", chunksFile, i, err)
	}
	if err := gojson.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: chunk %d: %w", chunksFile, i, err)
	}
	return c, nil
}
