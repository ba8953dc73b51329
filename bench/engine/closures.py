from functools import reduce
xs = list(range(1, 1000001))
total = 0
for k in range(1, 6):
    total += reduce(lambda a, b: a + b,
                    map(lambda x: x * k, filter(lambda x: x % 3 == k % 3, xs)))
print(total)
