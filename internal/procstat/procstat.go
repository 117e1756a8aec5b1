// Package procstat reads what the kernel says of a process: its parent,
// its process group, whether it is still running. It is how ferridriver
// makes sure the browsers and web servers it killed are gone.
package procstat
