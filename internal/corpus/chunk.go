package corpus

import (
	"fmt"
	"strconv"
	"strings"
)

// Chunk is the unit of retrieval: a piece of one document's text that keeps
// its document's metadata. Its ID is the document id and the chunk's
// ordinal joined by '#', stable as long as the document does not change.
type Chunk struct {
	ID        string   `json:"id"`
	DocID     string   `json:"doc_id"`
	Ordinal   int      `json:"ordinal"`
	Text      string   `json:"text"`
	Title     string   `json:"title"`
	Type      string   `json:"type,omitempty"`
	Source    string   `json:"source,omitempty"`
	Updated   string   `json:"updated,omitempty"`
	Status    Status   `json:"status"`
	Authority float64  `json:"authority"`
	ACL       []string `json:"acl"`
	Products  []string `json:"products,omitempty"`
	Tags      []string `json:"tags,omitempty"`
	URL       string   `json:"url,omitempty"`
}

// ChunkID joins a document id and a chunk ordinal.
func ChunkID(docID string, ordinal int) string {
	return docID + "#" + strconv.Itoa(ordinal)
}

// SplitChunkID is the inverse of ChunkID.
func SplitChunkID(id string) (docID string, ordinal int, err error) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return "", 0, fmt.Errorf("chunk id %q has no '#'", id)
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 0 {
		return "", 0, fmt.Errorf("chunk id %q has a bad ordinal", id)
	}
	return id[:i], n, nil
}

// NewChunk makes chunk number ordinal of d holding text.
func NewChunk(d *Document, ordinal int, text string) Chunk {
	return Chunk{
		ID: ChunkID(d.ID, ordinal), DocID: d.ID, Ordinal: ordinal, Text: text,
		Title: d.Title, Type: d.Type, Source: d.Source, Updated: d.Updated,
		Status: d.Status, Authority: d.Authority, ACL: d.ACL,
		Products: d.Products, Tags: d.Tags, URL: d.URL,
	}
}

// VisibleTo reports whether a principal in groups may see c.
func (c *Chunk) VisibleTo(groups []string) bool { return Visible(c.ACL, groups) }
