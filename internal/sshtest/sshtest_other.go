//go:build !linux

package sshtest

import (
	"errors"
	"runtime"
	"testing"
)

// platform is empty where Start always skips.
type platform struct{}

// Start skips t: network namespaces and veth pairs are Linux's.
func Start(t testing.TB) *Host {
	t.Helper()
	t.Skip("sshtest: needs Linux network namespaces (ip netns) and a veth pair; this is " + runtime.GOOS)
	return nil
}

var errNotLinux = errors.New("sshtest: Linux only")

// Processes fails: there is no Host outside Linux.
func (h *Host) Processes() ([]int, error) { return nil, errNotLinux }

// Clean fails: there is no Host outside Linux.
func (h *Host) Clean() error { return errNotLinux }

// LinkDown fails: there is no Host outside Linux.
func (h *Host) LinkDown() error { return errNotLinux }

// LinkUp fails: there is no Host outside Linux.
func (h *Host) LinkUp() error { return errNotLinux }
