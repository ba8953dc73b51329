; stdlib/core.arc — being written.
