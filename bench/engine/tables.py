h = {}
for i in range(200000, 0, -1):
    h[str(i)] = i
n = 0
for i in range(200000, 0, -1):
    n += len(str(h[str(i)]))
print(n)
