acc = 0
i = 20000000
while i != 0:
    acc += i
    i -= 1
print(acc)
