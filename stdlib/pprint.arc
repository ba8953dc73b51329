; stdlib/pprint.arc — being written.
