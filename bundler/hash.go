package bundler

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
)

// hasher hashes a sequence of named parts unambiguously (each part is length
// prefixed), so no two different sequences hash the same.
type hasher struct{ h hash.Hash }

func newHasher() *hasher {
	h := sha256.New()
	h.Write([]byte("widgetd/v1\x00"))
	return &hasher{h: h}
}

func (h *hasher) add(name string, data []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(name)))
	h.h.Write(n[:])
	h.h.Write([]byte(name))
	binary.BigEndian.PutUint64(n[:], uint64(len(data)))
	h.h.Write(n[:])
	h.h.Write(data)
}

func (h *hasher) sum() string { return hex.EncodeToString(h.h.Sum(nil)) }

// sha256Hex is the hex SHA-256 of data, the form a manifest and the caches
// name file contents by.
func sha256Hex(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}
