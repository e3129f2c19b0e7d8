package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Options are the inputs of Load besides the defaults.
type Options struct {
	// File is a YAML file; empty means none.
	File string
	// Getenv reads the environment; nil means no environment.
	Getenv func(string) string
	// Overrides are settings by YAML path ("http.addr"), applied last:
	// the flags the user set.
	Overrides map[string]string
}

// Load builds a Config from defaults, file, environment and overrides, in
// that order, and validates it.
func Load(opts Options) (Config, error) {
	cfg := Default()
	if opts.File != "" {
		if err := cfg.mergeFile(opts.File); err != nil {
			return Config{}, err
		}
	}
	if opts.Getenv != nil {
		if err := cfg.mergeEnv(opts.Getenv); err != nil {
			return Config{}, err
		}
	}
	paths := make([]string, 0, len(opts.Overrides))
	for p := range opts.Overrides {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := cfg.Set(p, opts.Overrides[p]); err != nil {
			return Config{}, err
		}
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func (c *Config) mergeFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("config file %s: %w", path, unknownKeys(err))
	}
	return nil
}

func (c *Config) mergeEnv(getenv func(string) string) error {
	var errList []error
	if v := getenv(KeysEnv); strings.TrimSpace(v) != "" {
		var keys []Key
		dec := yaml.NewDecoder(strings.NewReader(v))
		dec.KnownFields(true)
		if err := dec.Decode(&keys); err != nil {
			// The value is secret-adjacent: name the variable, not the text.
			errList = append(errList, fmt.Errorf("%s: want a YAML or JSON list of keys like auth.keys: %v", KeysEnv, yamlErrorLine(err)))
		} else {
			c.Auth.Keys = keys
		}
	}
	for _, s := range settings(c) {
		name := EnvName(s.path)
		v := getenv(name)
		if v == "" {
			continue
		}
		if err := s.set(v); err != nil {
			errList = append(errList, fmt.Errorf("%s: %w", name, err))
		}
	}
	return errors.Join(errList...)
}

// Set sets one scalar setting by its YAML path, parsing value as the
// setting's type (durations as "10s", lists comma-separated).
func (c *Config) Set(path, value string) error {
	for _, s := range settings(c) {
		if s.path == path {
			if err := s.set(value); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			return nil
		}
	}
	return fmt.Errorf("%s: no such setting", path)
}

// EnvName is the environment variable for a YAML path.
func EnvName(path string) string {
	return EnvPrefix + strings.ToUpper(strings.NewReplacer(".", "_").Replace(path))
}

// EnvNames lists every environment variable assay reads, sorted.
func EnvNames() []string {
	var c Config
	var out []string
	for _, s := range settings(&c) {
		out = append(out, EnvName(s.path))
	}
	out = append(out, KeysEnv)
	sort.Strings(out)
	return out
}

// yamlErrorLine keeps the position and reason of a YAML error.
func yamlErrorLine(err error) string {
	return strings.TrimPrefix(err.Error(), "yaml: ")
}

// setting is one scalar field reachable by a YAML path.
type setting struct {
	path string
	v    reflect.Value
}

var durationType = reflect.TypeFor[time.Duration]()

// settings walks c's scalar fields. Lists of structs (auth.keys) are file-only.
func settings(c *Config) []setting {
	var out []setting
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		t := v.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			path := name
			if prefix != "" {
				path = prefix + "." + name
			}
			f := v.Field(i)
			switch {
			case f.Kind() == reflect.Struct:
				walk(path, f)
			case f.Kind() == reflect.Slice && f.Type().Elem().Kind() != reflect.String, f.Kind() == reflect.Map:
				// not settable from a string: file only
			default:
				out = append(out, setting{path: path, v: f})
			}
		}
	}
	walk("", reflect.ValueOf(c).Elem())
	return out
}

func (s setting) set(value string) error {
	value = strings.TrimSpace(value)
	switch {
	case s.v.Type() == durationType:
		d, err := time.ParseDuration(value)
		if err != nil {
			return fmt.Errorf("want a duration like 30s, got %q", value)
		}
		s.v.SetInt(int64(d))
	case s.v.Kind() == reflect.String:
		s.v.SetString(value)
	case s.v.Kind() == reflect.Int, s.v.Kind() == reflect.Int64:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return fmt.Errorf("want an integer, got %q", value)
		}
		s.v.SetInt(n)
	case s.v.Kind() == reflect.Float64:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("want a number, got %q", value)
		}
		s.v.SetFloat(f)
	case s.v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", value)
		}
		s.v.SetBool(b)
	case s.v.Kind() == reflect.Slice:
		var list []string
		for _, item := range strings.Split(value, ",") {
			if item = strings.TrimSpace(item); item != "" {
				list = append(list, item)
			}
		}
		s.v.Set(reflect.ValueOf(list))
	default:
		return fmt.Errorf("unsupported setting type %s", s.v.Type())
	}
	return nil
}

// unknownKeys rewrites the YAML decoder's "field adr not found in type
// config.HTTP" into the key's path as a file writes it ("unknown key
// http.adr"), so the error names the field a user typed; other errors
// pass unchanged.
func unknownKeys(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	paths := keyPaths(reflect.TypeOf(Config{}), "", map[reflect.Type]string{})
	msgs := make([]string, len(te.Errors))
	for i, m := range te.Errors {
		msgs[i] = m
		pos, rest, ok := strings.Cut(m, ": field ")
		if !ok {
			continue
		}
		field, typ, ok := strings.Cut(rest, " not found in type ")
		if !ok {
			continue
		}
		key := field
		for t, p := range paths {
			if t.String() == typ && p != "" {
				key = p + "." + field
			}
		}
		msgs[i] = pos + ": unknown key " + key
	}
	return fmt.Errorf("%s", strings.Join(msgs, "; "))
}

// keyPaths maps each struct type under t to the YAML path it is read at
// (the first, in field order, when one type is read at several).
func keyPaths(t reflect.Type, path string, out map[reflect.Type]string) map[reflect.Type]string {
	if t.Kind() != reflect.Struct {
		return out
	}
	if _, seen := out[t]; seen {
		return out
	}
	out[t] = path
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		p := name
		if path != "" {
			p = path + "." + name
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice || ft.Kind() == reflect.Map {
			if ft.Kind() != reflect.Pointer {
				p += "[]"
			}
			ft = ft.Elem()
		}
		keyPaths(ft, p, out)
	}
	return out
}
