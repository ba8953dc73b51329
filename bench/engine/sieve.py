def sieve(n):
    flags = [True] * (n + 1)
    count = 0
    for i in range(2, n + 1):
        if flags[i]:
            count += 1
            for k in range(i * i, n + 1, i):
                flags[k] = False
    return count

count = None
for _ in range(5):
    count = sieve(1000000)
print(count)
