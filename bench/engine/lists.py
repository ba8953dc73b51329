s = 0
for k in range(100):
    l = None
    for n in range(100000, 0, -1):
        l = (n, l)
    r = None
    while l is not None:
        r = (l[0], r)
        l = l[1]
    s += r[0]
print(s)
