// Package ndjson is what the differential tools share for talking to a
// `dra ... --batch` subprocess and reading NDJSON cases: one JSON value a
// line each way (tests/upstream/README.md).
package ndjson

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// Proc is one dra batch subprocess.
type Proc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	name string
}

// Start runs bin with args (e.g. "validate", "--batch"); its stderr is ours.
func Start(bin string, args ...string) (*Proc, error) {
	cmd := exec.Command(bin, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Proc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), name: fmt.Sprint(args)}, nil
}

// Send writes v as one line.
func (p *Proc) Send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = p.in.Write(append(b, '\n'))
	return err
}

// SendLine writes line, which must be one JSON value without newlines,
// and a newline (for callers that have the bytes already).
func (p *Proc) SendLine(line []byte) error {
	_, err := p.in.Write(append(line, '\n'))
	return err
}

// CloseInput tells the process no more cases come.
func (p *Proc) CloseInput() { p.in.Close() }

// Read decodes the next answer line into v.
func (p *Proc) Read(v any) error {
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("dra %s ended: %w", p.name, err)
	}
	return json.Unmarshal(line, v)
}

// Close ends the input and waits for the process.
func (p *Proc) Close() {
	p.in.Close()
	p.cmd.Wait()
}

// One answers a single case with a fresh process (for minimizing).
func One(bin string, c, result any, args ...string) error {
	p, err := Start(bin, args...)
	if err != nil {
		return err
	}
	defer p.Close()
	if err := p.Send(c); err != nil {
		return err
	}
	p.CloseInput()
	return p.Read(result)
}

// EachLine calls f with every non-blank line of r, stopping at f's first error.
func EachLine(r io.Reader, f func(line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := f(sc.Bytes()); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Answer writes answer(line) as one JSON line for every non-blank line of r
// (a tool's -upstream mode), stopping at answer's first error.
func Answer(r io.Reader, w io.Writer, answer func(line []byte) (any, error)) error {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	return EachLine(r, func(line []byte) error {
		v, err := answer(line)
		if err != nil {
			return err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = bw.Write(append(b, '\n'))
		return err
	})
}

// EachCase calls f on the case numbers a run covers: only that one when
// only >= 0 (-only), else 0 to count-1 (-count).
func EachCase(only, count int, f func(i int)) {
	if only >= 0 {
		f(only)
		return
	}
	for i := 0; i < count; i++ {
		f(i)
	}
}
