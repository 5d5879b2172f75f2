//go:build !linux

package harness

// fadviseDontNeed is a no-op where posix_fadvise is not available.
func fadviseDontNeed(path string) {}
