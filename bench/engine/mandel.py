def steps(cr, ci):
    zr, zi, i = 0.0, 0.0, 0
    while i < 50 and zr * zr + zi * zi <= 4.0:
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
        i += 1
    return i

n, inside = 300, 0
for y in range(n):
    for x in range(n):
        if steps(2.0 * x / n - 1.5, 2.0 * y / n - 1.0) == 50:
            inside += 1
print(inside)
