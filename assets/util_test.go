package assets_test

import (
	"os"
	"path/filepath"
	"strconv"
)

func strconvI(n int64) string { return strconv.FormatInt(n, 10) }

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

func readFile(dir, p string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	return string(b), err
}
