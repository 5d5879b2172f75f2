//go:build !linux

package driver

// fadviseDontNeed is a no-op where posix_fadvise is not available.
func fadviseDontNeed(path string) {}
