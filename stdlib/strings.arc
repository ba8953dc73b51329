; stdlib/strings.arc — being written.
