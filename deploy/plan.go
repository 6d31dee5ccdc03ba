package deploy

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/internal/displaypath"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// Phases of a deploy, in upload order; each ends before the next begins.
const (
	phaseHashed    = iota // hashed files the documents load
	phaseDocuments        // HTML documents and public/ files
	phaseHeaders          // _headers
	phaseManifest         // manifest.json, last of all
)

// object is one object a deploy puts: a dist/ file or one of its sidecars.
type object struct {
	key             string // dist/-relative path, also the key after the prefix
	size            int64
	sha256          string
	contentType     string
	cacheControl    string
	contentEncoding string // "" for identity bytes
	phase           int
	body            []byte // read (and checked) only when it must be uploaded
}

// distPlan is a dist/ read for deploying: its manifest and the objects to put.
type distPlan struct {
	dir      string
	manifest *assets.Manifest
	objects  []*object
	// keep holds every key the manifest's builds reference, sidecars
	// included whether or not they are uploaded: --prune never deletes them.
	keep map[string]bool
}

// readDist loads dir's manifest and checks every file against it (through
// assets.Load, as widgetd serve does) before anything is sent.
func readDist(dir string, sidecars bool) (*distPlan, error) {
	show := displaypath.Show(dir)
	if _, err := os.Stat(filepath.Join(dir, assets.ManifestFile)); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s has no %s: run widgetd build first, or point --dist at its output", show, assets.ManifestFile)
	}
	reg, err := assets.Load(os.DirFS(dir))
	if err != nil {
		return nil, fmt.Errorf("%s is not a complete widgetd build (%w); run widgetd build again", show, err)
	}
	m := reg.Manifest()
	docs := map[string]bool{}
	for _, w := range m.Widgets {
		docs[w.HTML] = true
	}
	for _, b := range m.Builds {
		for _, bw := range b.Widgets {
			docs[bw.HTML] = true
		}
	}
	p := &distPlan{dir: dir, manifest: m, keep: map[string]bool{assets.ManifestFile: true, assets.HeadersFile: true}}
	for _, f := range m.Files {
		phase := phaseHashed
		if docs[f.Path] || !f.Immutable {
			phase = phaseDocuments
		}
		cache := assets.CacheRevalidate
		if f.Immutable {
			cache = assets.CacheImmutable
		}
		p.add(&object{key: f.Path, size: f.Size, sha256: f.SHA256, contentType: f.ContentType, cacheControl: cache, phase: phase})
		for _, e := range f.Encodings {
			p.keep[e.Path] = true
			if sidecars {
				p.add(&object{key: e.Path, size: e.Size, sha256: e.SHA256, contentType: f.ContentType, cacheControl: cache, contentEncoding: e.Name, phase: phase})
			}
		}
	}
	for _, extra := range []struct {
		name, ctype string
		phase       int
	}{{assets.HeadersFile, "text/plain; charset=utf-8", phaseHeaders}, {assets.ManifestFile, "application/json", phaseManifest}} {
		data, err := regularfile.Read(filepath.Join(dir, extra.name), 64<<20)
		if errors.Is(err, fs.ErrNotExist) && extra.name == assets.HeadersFile {
			data, err = assets.StaticHeaders(m), nil // a build from before widgetd wrote it
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", displaypath.Show(filepath.Join(dir, extra.name)), err)
		}
		p.add(&object{key: extra.name, size: int64(len(data)), sha256: sha256Hex(data), contentType: extra.ctype,
			cacheControl: assets.CacheRevalidate, phase: extra.phase, body: data})
	}
	return p, nil
}

func (p *distPlan) add(o *object) {
	p.objects = append(p.objects, o)
	p.keep[o.key] = true
}

// load reads o's bytes from dist/ and checks them against the manifest, so
// a file changed since the build is never published under its hash.
func (p *distPlan) load(o *object) error {
	if o.body != nil {
		return nil
	}
	path := filepath.Join(p.dir, filepath.FromSlash(o.key))
	data, err := regularfile.Read(path, o.size)
	if err != nil {
		return fmt.Errorf("read %s: %w", displaypath.Show(path), err)
	}
	if int64(len(data)) != o.size || sha256Hex(data) != o.sha256 {
		return fmt.Errorf("%s changed since widgetd build wrote %s (size or sha256 differs); run widgetd build again",
			displaypath.Show(path), assets.ManifestFile)
	}
	o.body = data
	return nil
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
