package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// CPU is the user and system time process pid has used so far; 0 when it
// cannot be read (the process has ended).
func CPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	// The command's name, in parentheses, may hold spaces: the fields
	// are counted after its closing one.
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ is 100 on Linux
}
