; stdlib/code.arc — placeholder while it is being written (issue 11).
