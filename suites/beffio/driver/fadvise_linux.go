package driver

import (
	"os"
	"syscall"
)

// fadviseDontNeed asks the kernel to drop the page-cache pages of a file
// (POSIX_FADV_DONTNEED), after writing back what is dirty.
func fadviseDontNeed(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	f.Sync()
	const posixFadvDontneed = 4
	syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, posixFadvDontneed, 0, 0)
}
