//go:build unix

package tree

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestReadsDoNotWaitForEachOther reads a named pipe through the tree,
// which blocks until something writes into it, and meanwhile reads a
// regular file: a tree holding its lock while it reads the disk would
// make the second read wait for the first.
func TestReadsDoNotWaitForEachOther(t *testing.T) {
	dir := t.TempDir()
	pipe, plain := filepath.Join(dir, "pipe.yaml"), filepath.Join(dir, "plain.yaml")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	write(t, plain, "plain\n")
	tr := New()
	piped := make(chan string, 1)
	go func() {
		data, err := tr.ReadFile(pipe)
		if err != nil {
			t.Error(err)
		}
		piped <- string(data)
	}()
	// Let the pipe's reader start before the plain read (no harm if it
	// has not: the plain read then simply comes first).
	time.Sleep(50 * time.Millisecond)
	done := make(chan string, 1)
	go func() {
		data, err := tr.ReadFile(plain)
		if err != nil {
			t.Error(err)
		}
		done <- string(data)
	}()
	var got string
	select {
	case got = <-done:
	case <-time.After(20 * time.Second):
		t.Error("a read waited for another read of the disk")
	}
	if err := os.WriteFile(pipe, []byte("piped\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got == "" {
		got = <-done
	}
	if got != "plain\n" || <-piped != "piped\n" {
		t.Errorf("reads returned %q and something else than the pipe's content", got)
	}
}

// TestConcurrentReadsShareTheBytes reads one file on many goroutines:
// every reader gets the same bytes, the ones the tree keeps as the disk's
// (WriteFile compares against them and shares them).
func TestConcurrentReadsShareTheBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.yaml")
	write(t, path, "same\n")
	tr := New()
	const readers = 16
	got := make([][]byte, readers)
	var wg sync.WaitGroup
	for i := range readers {
		wg.Go(func() {
			data, err := tr.ReadFile(path)
			if err != nil {
				t.Error(err)
			}
			got[i] = data
		})
	}
	wg.Wait()
	kept := tr.WriteFile(path, []byte("same\n"))
	for i, data := range got {
		if string(data) != "same\n" || &data[0] != &kept[0] {
			t.Fatalf("reader %d got %q, not the bytes the tree keeps", i, data)
		}
	}
}
