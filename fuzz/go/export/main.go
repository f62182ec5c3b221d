// Command export converts the inputs `go test -fuzz` keeps (its own corpus
// format, "go test fuzz v1" then one Go literal per argument) into a
// libFuzzer corpus directory: one raw input per file, named by the SHA-1 of
// its bytes, as libFuzzer, atheris and `uridiff corpus add` name them.
//
//	go run ./export FROM... TO
//
// FROM: Go corpus directories ($(go env GOCACHE)/fuzz/uridifffuzz/FuzzParse
// for what the fuzzer found interesting, testdata/fuzz/FuzzParse for what
// failed). Only files of one string or []byte argument are converted (the
// form of FuzzParse); anything else is counted and left. An input already in
// TO (converted before, or found by another fuzzer) is counted as there
// already: what Go has found in all is the sum of both. A file is written
// under a hidden temporary name and renamed into place, so a follower
// polling TO never reads half of one. Prints how many were converted.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

const header = "go test fuzz v1"

// decode returns the one argument of a Go corpus file.
func decode(data []byte) ([]byte, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	var lines []string
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(lines) != 2 || lines[0] != header {
		return nil, fmt.Errorf("not a %q file of one argument", header)
	}
	arg := lines[1]
	for _, kind := range []string{"string(", "[]byte("} {
		if strings.HasPrefix(arg, kind) && strings.HasSuffix(arg, ")") {
			// Go writes the value as a quoted literal (strconv.Quote, or
			// a raw `...` string), which strconv.Unquote reads back.
			text, err := strconv.Unquote(arg[len(kind) : len(arg)-1])
			if err != nil {
				return nil, err
			}
			return []byte(text), nil
		}
	}
	return nil, fmt.Errorf("not a string or []byte argument: %.40s", arg)
}

func run(froms []string, to string) (converted, present, skipped int, err error) {
	for _, from := range froms {
		entries, err := os.ReadDir(from)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return converted, present, skipped, err
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			data, err := os.ReadFile(filepath.Join(from, e.Name()))
			if err != nil {
				skipped++
				continue
			}
			input, err := decode(data)
			if err != nil {
				skipped++
				continue
			}
			sum := sha1.Sum(input)
			name := filepath.Join(to, hex.EncodeToString(sum[:]))
			if _, err := os.Lstat(name); err == nil {
				present++
				continue
			}
			tmp, err := os.CreateTemp(to, ".go-export-*")
			if err != nil {
				return converted, present, skipped, err
			}
			_, werr := tmp.Write(input)
			cerr := tmp.Close()
			if werr == nil {
				werr = cerr
			}
			if werr == nil {
				werr = os.Rename(tmp.Name(), name)
			}
			if werr != nil {
				os.Remove(tmp.Name())
				return converted, present, skipped, werr
			}
			converted++
		}
	}
	return converted, present, skipped, nil
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: export FROM... TO")
		os.Exit(2)
	}
	froms, to := os.Args[1:len(os.Args)-1], os.Args[len(os.Args)-1]
	converted, present, skipped, err := run(froms, to)
	fmt.Printf("export: %d inputs converted into %s (%d were there already), %d files not of FuzzParse's form\n", converted, to, present, skipped)
	if err != nil {
		fmt.Fprintln(os.Stderr, "export:", err)
		os.Exit(1)
	}
}
