// Package testserver starts a real `hunters serve` on a free loopback port for the tests.
package testserver

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serverDir is where the server runs: the repository root when the tests run inside a checkout
// (the nearest directory above holding pyproject.toml, so that a source tree imports), else
// fallback (a copy of this folder elsewhere then needs hunters installed in $PYTHON's environment).
func serverDir(fallback string) string {
	dir, err := os.Getwd()
	if err != nil {
		return fallback
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "pyproject.toml")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return fallback
		}
		dir = up
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Start runs `python -m hunters.cli serve` with a temporary database and waits for its "serving"
// log line; the server stops when the test (or TestMain's m) ends through the returned stop.
// env: extra "NAME=value" settings, e.g. HUNTERS_CREATE_TOKEN.
func Start(env ...string) (addr string, stop func(), err error) {
	port, err := freePort()
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "hunters-go-")
	if err != nil {
		return "", nil, err
	}
	python := os.Getenv("PYTHON")
	if python == "" {
		python = "python"
	}
	cmd := exec.Command(python, "-m", "hunters.cli", "serve", "--host", "127.0.0.1", "--port", fmt.Sprint(port),
		"--db", filepath.Join(dir, "matches.db"))
	cmd.Dir = serverDir(dir)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	ready := make(chan struct{})
	var lines []string
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		signalled := false
		for sc.Scan() { // keep draining so that the server never blocks on its log
			if !signalled {
				lines = append(lines, sc.Text())
				if strings.Contains(sc.Text(), `"msg": "serving"`) {
					signalled = true
					close(ready)
				}
			}
		}
	}()
	stop = func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		_ = os.RemoveAll(dir)
	}
	select {
	case <-ready:
		return fmt.Sprintf("127.0.0.1:%d", port), stop, nil
	case <-time.After(30 * time.Second):
		stop()
		return "", nil, fmt.Errorf("server not up after 30 s:\n%s", strings.Join(lines, "\n"))
	}
}

// ForTest starts a server for one test and stops it at the test's end.
func ForTest(t testing.TB, env ...string) string {
	t.Helper()
	addr, stop, err := Start(env...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return addr
}
