package release

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/errs"
)

// FileStore keeps releases in a directory (embedded mode: <data_dir>/releases):
//
//	manifests/NAME.json  one manifest, created once (O_EXCL)
//	status/NAME.json     its status
//	active.json          the active set
//	indexes/NAME/        the bleve index version a release built
//
// Writes go to a temporary file renamed into place, so a reader sees the
// old or the new file, never half of one.
type FileStore struct{ Dir string }

// NewFileStore is the store in dir; its directories are made on the
// first write, so a process that only reads (a gateway) makes none.
func NewFileStore(dir string) (*FileStore, error) {
	if dir == "" {
		return nil, errs.FieldError("release", "data_dir", "empty: the release store needs a directory")
	}
	return &FileStore{Dir: dir}, nil
}

// IndexDir is where release name's bleve index version lives.
func (f *FileStore) IndexDir(name string) string { return filepath.Join(f.Dir, "indexes", name) }

func (f *FileStore) path(kind, name string) string {
	return filepath.Join(f.Dir, kind, name+".json")
}

// Create implements Store.
func (f *FileStore) Create(_ context.Context, m Manifest) error {
	if err := CheckName(m.Name); err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(f.Dir, "manifests"), 0o755); err != nil {
		return errs.E("release.Create", err)
	}
	fh, err := os.OpenFile(f.path("manifests", m.Name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return errs.Errorf("release.Create", errs.Conflict, "release %s exists; releases are immutable: create one with another name", m.Name)
	}
	if err != nil {
		return errs.E("release.Create", err)
	}
	_, err = fh.Write(append(b, '\n'))
	return errors.Join(err, fh.Close())
}

// Get implements Store.
func (f *FileStore) Get(_ context.Context, name string) (Manifest, error) {
	var m Manifest
	if err := CheckName(name); err != nil {
		return m, err
	}
	return m, readJSON(f.path("manifests", name), "release "+name, &m)
}

// List implements Store.
func (f *FileStore) List(ctx context.Context) ([]Manifest, error) {
	ents, err := os.ReadDir(filepath.Join(f.Dir, "manifests"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.E("release.List", err)
	}
	var out []Manifest
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		m, err := f.Get(ctx, name)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	sortByCreation(out)
	return out, nil
}

// Status implements Store.
func (f *FileStore) Status(_ context.Context, name string) (Status, error) {
	var st Status
	if err := CheckName(name); err != nil {
		return st, err
	}
	return st, readJSON(f.path("status", name), "status of release "+name, &st)
}

// SetStatus implements Store.
func (f *FileStore) SetStatus(_ context.Context, st Status) error {
	if err := CheckName(st.Name); err != nil {
		return err
	}
	return writeJSON(f.path("status", st.Name), st)
}

// Active implements Store.
func (f *FileStore) Active(context.Context) (Active, error) {
	var a Active
	err := readJSON(filepath.Join(f.Dir, "active.json"), "active releases", &a)
	if errs.Is(errs.NotFound, err) {
		return Active{}, nil
	}
	return a, err
}

// SetActive implements Store.
func (f *FileStore) SetActive(_ context.Context, a Active) error {
	return writeJSON(filepath.Join(f.Dir, "active.json"), a)
}

// Close implements Store.
func (f *FileStore) Close() error { return nil }

// Prune removes the index versions of releases not in keep (Kept), and
// returns the names it removed. Manifests and statuses stay: history.
func (f *FileStore) Prune(keep []string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(f.Dir, "indexes"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var gone []string
	for _, e := range ents {
		if !e.IsDir() || slices.Contains(keep, e.Name()) || strings.Contains(e.Name(), ".building-") {
			continue
		}
		if err := os.RemoveAll(f.IndexDir(e.Name())); err != nil {
			return gone, err
		}
		gone = append(gone, e.Name())
	}
	return gone, nil
}

func readJSON(path, what string, v any) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return errs.Errorf("release", errs.NotFound, "%s: not found", what)
	}
	if err != nil {
		return errs.E("release", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return errs.Errorf("release", errs.Invalid, "%s: %s: %v", what, path, err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return errs.E("release", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return errs.E("release", err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if err = errors.Join(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return errs.E("release", err)
	}
	return nil
}

func sortByCreation(ms []Manifest) {
	slices.SortStableFunc(ms, func(a, b Manifest) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}
