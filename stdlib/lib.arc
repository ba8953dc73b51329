; stdlib/lib.arc — being written.
